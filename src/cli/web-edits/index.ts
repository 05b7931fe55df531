/**
 * Web edits as commits and pull requests: `kbsync pull --branch NAME` and
 * `kbsync pull --pull-request`. The pull itself is the command's (a callback
 * given the folder to pull into); this folder owns git, GitHub and the words.
 */
import type {CommandContext} from '../command.js'
import {UsageError} from '../errors.js'
import type {SyncSession} from '../session.js'
import {pullToBranch, type BranchOutcome, type PullRun} from './branch.js'
import {gitHubSettings} from './github-settings.js'
import {gitText} from './git.js'
import {pullToPullRequest, remoteName} from './pull-request.js'
import {checkBranchName, readCheckout} from './repository.js'

export type {PullRun} from './branch.js'
export {commitMessage, pullRequestBody, summarise, summaryTitle, type WebEditsSummary} from './summary.js'
export {gitHubSettings, repositoryOfRemote, type GitHubSettings} from './github-settings.js'
export {parseRawDiff, sameChanges} from './tree-changes.js'

/** The branch `--pull-request` commits to unless `--branch` names one. */
export const defaultPullRequestBranch = 'kbsync/web-edits'

/** The options of `pull` this folder reads. */
export const webEditsOptions = {
  branch: {type: 'string'},
  'pull-request': {type: 'boolean'}
} as const

/** Their `--help` lines. */
export const webEditsHelp = `  --branch NAME      commit the pull to branch NAME (created from the checked-out
                     commit when missing) instead of the working tree; the checked-out
                     branch and the working tree are left as they are
  --pull-request     commit to a branch (--branch, default ${defaultPullRequestBranch}), push it to
                     origin and open or update its pull request on GitHub
                     (GITHUB_REPOSITORY, GITHUB_TOKEN, GITHUB_API_URL); nothing new: nothing done`

/** What a pull to a branch was asked for. */
export interface WebEditsRequest {
  branch: string
  pullRequest: boolean
}

/** The request of `--branch`/`--pull-request`, if any; a usage error for options that contradict them. */
export function webEditsRequest(context: CommandContext): WebEditsRequest | undefined {
  const {branch} = context.values
  const pullRequest = context.values['pull-request'] === true
  if (branch === undefined && !pullRequest) return undefined
  if (branch !== undefined && (typeof branch !== 'string' || branch.trim() === ''))
    throw new UsageError('--branch takes the name of the branch to commit to, e.g. --branch kbsync/web-edits')
  for (const other of ['dry-run', 'json'])
    if (context.values[other] === true)
      throw new UsageError(
        `--${other} cannot be combined with --branch or --pull-request (they commit what the pull writes)`
      )
  return {branch: typeof branch === 'string' ? branch.trim() : defaultPullRequestBranch, pullRequest}
}

/** The line that says how the branch came out. */
function branchLine(outcome: BranchOutcome, branch: string): string {
  if (outcome.status === 'nothing') return `Nothing new on the platform: no commit to ${branch}.`
  if (outcome.status === 'unchanged') return `${branch} already holds these edits: no new commit.`
  const documents = outcome.added?.documents.length ?? 0
  return `Committed ${documents} document${documents === 1 ? '' : 's'} to ${branch} (${outcome.commit?.slice(0, 12)}).`
}

/**
 * Runs the pull into a branch (and its pull request): resolves to the exit
 * code, the pull's own (3 when conflicts went into the branch) unless git or
 * GitHub failed.
 */
export async function pullWebEdits(
  context: CommandContext,
  session: SyncSession,
  request: WebEditsRequest,
  runPull: (dir: string) => Promise<PullRun>
): Promise<number> {
  const {config, reporter, target} = session
  const checkout = await readCheckout(config.dir)
  await checkBranchName(request.branch, checkout.top)
  const source = target.description
  if (!request.pullRequest) {
    const outcome = await pullToBranch({checkout, branch: request.branch, source, runPull})
    if (outcome.status === 'failed') return outcome.code
    reporter.success(branchLine(outcome, request.branch))
    return outcome.code
  }
  const originUrl = await gitText(['remote', 'get-url', remoteName], {cwd: checkout.top}).catch(() => {
    throw new UsageError(`the repository has no remote '${remoteName}' to push ${request.branch} to`)
  })
  // Before pulling: a missing token or repository fails the run at once.
  const settings = gitHubSettings(context.env, originUrl)
  const baseRef = context.env.GITHUB_BASE_REF?.trim()
  const outcome = await pullToPullRequest({
    checkout,
    branch: request.branch,
    settings,
    ...(baseRef ? {baseRef} : {}),
    source,
    runPull,
    say: (line) => reporter.info(line)
  })
  if (outcome.branch.status === 'failed') return outcome.branch.code
  reporter.info(branchLine(outcome.branch, request.branch))
  const pull = outcome.pullRequest
  if (pull === undefined) reporter.success('No pull request opened or changed.')
  else if (outcome.action === 'kept') reporter.success(`Pull request #${pull.number} is up to date: ${pull.url}`)
  else
    reporter.success(`${outcome.action === 'opened' ? 'Opened' : 'Updated'} pull request #${pull.number}: ${pull.url}`)
  return outcome.branch.code
}
