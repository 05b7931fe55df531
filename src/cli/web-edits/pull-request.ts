/**
 * `pull --pull-request`: the pull committed to a branch (`pull --branch`),
 * the branch pushed to `origin`, and one pull request opened for it or
 * updated (its description listing every web edit it proposes, per
 * document, and the conflicts). The branch is the remote's: fetched first,
 * so a fresh CI checkout continues the pull request earlier runs opened. A
 * run with nothing new commits nothing, pushes nothing and writes nothing to
 * GitHub.
 */
import type {GitHubSettings} from './github-settings.js'
import {GitHubClient, type PullRequest} from './github.js'
import {git, gitText} from './git.js'
import type {Checkout} from './repository.js'
import {pullToBranch, type BranchOutcome, type PullRun} from './branch.js'
import {pullRequestBody, summaryTitle, type WebEditsSummary} from './summary.js'
import {redact} from '../../api/redact.js'

/** The remote the branch is pushed to. */
export const remoteName = 'origin'

/** What `pullToPullRequest` needs. */
export interface PullRequestPull {
  checkout: Checkout
  branch: string
  settings: GitHubSettings
  /** `GITHUB_BASE_REF`, when set. */
  baseRef?: string
  source: string
  runPull(dir: string): Promise<PullRun>
  /** Lines for people, as the run goes. */
  say(line: string): void
}

/** How a pull request run ended. */
export interface PullRequestOutcome {
  branch: BranchOutcome
  /** The pull request opened, updated or found; none when nothing was new. */
  pullRequest?: PullRequest
  action: 'none' | 'opened' | 'updated' | 'kept'
}

/** The commit `branch` is at on the remote (fetched), if the remote has it. */
async function fetchBranch(top: string, branch: string): Promise<string | undefined> {
  const listed = await gitText(['ls-remote', '--heads', remoteName, `refs/heads/${branch}`], {cwd: top})
  const tip = listed
    .split('\n')
    .find((line) => line.endsWith(`\trefs/heads/${branch}`))
    ?.split('\t')[0]
  if (tip === undefined) return undefined
  await git(
    ['fetch', '--quiet', '--no-tags', remoteName, `+refs/heads/${branch}:refs/remotes/${remoteName}/${branch}`],
    {
      cwd: top
    }
  )
  return tip
}

/**
 * The settings that let the push authenticate with the token: none when the
 * remote is not https, names its own credentials, or the checkout already
 * has an extra header (actions/checkout keeps one; two Authorization headers
 * would be refused).
 */
async function pushConfig(top: string, remoteUrl: string, token: string): Promise<Record<string, string>> {
  let url: URL
  try {
    url = new URL(remoteUrl)
  } catch {
    return {}
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return {}
  const headers = await git(['config', '--get-regexp', '^http\\..*extraheader$'], {cwd: top, okCodes: [1]})
  if (headers.stdout.trim() !== '') return {}
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64')
  return {[`http.${url.origin}/.extraheader`]: `AUTHORIZATION: basic ${basic}`}
}

/** Pushes `commit` as the remote's `branch` (a fast-forward: the commit descends from the remote's tip). */
async function pushBranch(top: string, branch: string, commit: string, token: string): Promise<void> {
  const remoteUrl = await gitText(['remote', 'get-url', '--push', remoteName], {cwd: top})
  const config = await pushConfig(top, remoteUrl, token)
  try {
    await git(['push', '--quiet', '--no-verify', remoteName, `${commit}:refs/heads/${branch}`], {cwd: top, config})
  } catch (error) {
    // No `cause`: it would carry git's words unredacted to whoever prints causes.
    // eslint-disable-next-line preserve-caught-error
    throw new Error(redact(`could not push ${branch} to ${remoteName}: ${(error as Error).message}`, [token]))
  }
}

/** The pull request to keep, open or update for the branch's commit. */
async function settlePullRequest(
  client: GitHubClient,
  input: PullRequestPull,
  outcome: BranchOutcome & {commit: string; summary: WebEditsSummary}
): Promise<Pick<PullRequestOutcome, 'pullRequest' | 'action'>> {
  const pulls = await client.pullsOf(input.branch, outcome.status === 'committed' ? 'open' : 'all')
  const open = pulls.find((pull) => pull.state === 'open')
  const words = {title: summaryTitle(outcome.summary), body: pullRequestBody(outcome.summary, input.source)}
  if (outcome.status === 'unchanged') {
    // Nothing new: an open pull request is up to date, a closed one for this very commit was declined.
    const settled = open ?? pulls.find((pull) => pull.headSha === outcome.commit)
    if (settled) return {pullRequest: settled, action: 'kept'}
  }
  if (open) return {pullRequest: await client.update(open.number, words), action: 'updated'}
  const base = input.baseRef || input.checkout.branch || (await client.defaultBranch())
  return {pullRequest: await client.open({...words, head: input.branch, base}), action: 'opened'}
}

/** Pulls into the branch, pushes it and opens or updates its pull request. */
export async function pullToPullRequest(input: PullRequestPull): Promise<PullRequestOutcome> {
  const {checkout, branch, settings} = input
  const remoteTip = await fetchBranch(checkout.top, branch)
  const outcome = await pullToBranch({...input, ...(remoteTip !== undefined ? {tip: remoteTip} : {})})
  if (outcome.status === 'failed' || outcome.status === 'nothing') return {branch: outcome, action: 'none'}
  const {commit, summary} = outcome
  if (commit === undefined || summary === undefined) return {branch: outcome, action: 'none'}
  if (commit !== remoteTip) {
    await pushBranch(checkout.top, branch, commit, settings.token)
    input.say(`pushed ${branch} to ${remoteName} (${commit.slice(0, 12)})`)
  }
  const client = new GitHubClient(settings)
  try {
    return {branch: outcome, ...(await settlePullRequest(client, input, {...outcome, commit, summary}))}
  } finally {
    await client.close()
  }
}
