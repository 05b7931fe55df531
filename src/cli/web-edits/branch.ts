/**
 * `pull --branch NAME`: the pull committed to a branch, the checkout left
 * exactly as it was. The pull runs in a temporary worktree of the
 * checked-out commit, from that commit's files and sync state, so its result
 * is the commit plus every edit the platform has since; that tree is
 * committed on top of the branch (created from the checked-out commit when
 * missing; a merge of the checked-out commit when the branch does not hold it
 * yet, so a pull request shows the web edits only). When the branch already
 * proposes exactly those edits, or the platform has none, nothing is
 * committed.
 */
import path from 'node:path'
import type {PullResult} from '../../sync/pull/index.js'
import {git, gitText} from './git.js'
import {branchTip, checkNotCheckedOut, type Checkout} from './repository.js'
import {changesWhere, parseRawDiff, sameChanges, type TreeChanges} from './tree-changes.js'
import {commitMessage, summarise, type WebEditsSummary} from './summary.js'
import {inWorktree} from './worktree.js'

/** What the pull in the worktree gives back: its exit code and, when it ran to the end, its result. */
export interface PullRun {
  code: number
  result?: PullResult
}

/** What `pullToBranch` needs. */
export interface BranchPull {
  checkout: Checkout
  branch: string
  /** The commit the branch is at, when the caller knows better than the local branch (the remote's, for a pull request). */
  tip?: string
  /** The knowledge base, for the commit message. */
  source: string
  /** Runs the pull into the synced folder `dir` (the worktree's). */
  runPull(dir: string): Promise<PullRun>
}

/** How a pull to a branch ended. */
export interface BranchOutcome {
  /** `nothing`: the platform has no edit; `unchanged`: the branch already holds them; `committed`; `failed`: the pull failed, nothing committed. */
  status: 'nothing' | 'unchanged' | 'committed' | 'failed'
  /** The pull's exit code. */
  code: number
  /** The branch's commit after the run (when it exists). */
  commit?: string
  /** Every edit the branch proposes against the checked-out commit. */
  summary?: WebEditsSummary
  /** The new commit's own changes. */
  added?: WebEditsSummary
}

/** An identity for the commit when git has none configured (a fresh CI runner). */
async function identity(top: string): Promise<Record<string, string>> {
  const known = await git(['var', 'GIT_COMMITTER_IDENT'], {cwd: top, okCodes: [128]})
  if (known.code === 0) return {}
  // On GitHub Actions, the identity its own commits carry.
  const actions = process.env.GITHUB_ACTIONS === 'true'
  const name = actions ? 'github-actions[bot]' : 'kbsync'
  const email = actions ? '41898282+github-actions[bot]@users.noreply.github.com' : 'kbsync@users.noreply.github.com'
  return {GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email}
}

/** The changes from commit (or tree) `a` to `b`, without kbsync's own `.kbsync/` files. */
async function changesBetween(cwd: string, a: string, b: string, relDir: string): Promise<TreeChanges> {
  const raw = await git(['diff-tree', '-r', '-z', '--no-renames', a, b], {cwd})
  const own = path.posix.join(relDir, '.kbsync') + '/'
  return changesWhere(parseRawDiff(raw.stdout), (file) => !file.startsWith(own))
}

/** The edits a branch proposes: its changes since it parted from the checked-out commit (none known: undefined). */
async function proposed(cwd: string, head: string, tip: string, relDir: string): Promise<TreeChanges | undefined> {
  const base = await gitText(['merge-base', head, tip], {cwd, okCodes: [1]})
  return base === '' ? undefined : changesBetween(cwd, base, tip, relDir)
}

/**
 * Whether the branch at `tip` already proposes `edits`: its own changes since
 * it parted from the checked-out commit are the same. Without the history to
 * tell where it parted (a shallow clone), whether it holds this very tree.
 */
async function holdsEdits(checkout: Checkout, tip: string, tree: string, edits: TreeChanges): Promise<boolean> {
  const already = await proposed(checkout.top, checkout.head, tip, checkout.relDir)
  if (already !== undefined) return sameChanges(already, edits)
  return (await gitText(['rev-parse', `${tip}^{tree}`], {cwd: checkout.top})) === tree
}

/** Commits `tree` as the branch's next commit; resolves to the commit. */
async function commitTree(
  checkout: Checkout,
  input: {tree: string; tip: string | undefined; message: string; branch: string}
): Promise<string> {
  const {top, head} = checkout
  const holdsHead =
    input.tip !== undefined &&
    (await git(['merge-base', '--is-ancestor', head, input.tip], {cwd: top, okCodes: [1]})).code === 0
  const parents = input.tip === undefined ? [head] : holdsHead ? [input.tip] : [input.tip, head]
  const args = ['commit-tree', input.tree, ...parents.flatMap((p) => ['-p', p]), '-F', '-']
  const commit = await gitText(args, {cwd: top, input: input.message, env: await identity(top)})
  await git(['update-ref', '-m', 'kbsync pull --branch', `refs/heads/${input.branch}`, commit], {cwd: top})
  return commit
}

/**
 * Stages what the pull wrote in the folder `relDir`: every document, and of
 * `.kbsync/` only the files the commit tracks (a state the repository does
 * not commit is not committed to the branch either).
 */
async function stage(root: string, relDir: string): Promise<void> {
  const own = path.posix.join(relDir, '.kbsync')
  await git(['add', '--all', '--', relDir === '' ? '.' : relDir], {cwd: root})
  // Unstaged again, then only the tracked ones staged (an exclude pathspec would fail on an ignored `.kbsync/`).
  await git(['reset', '--quiet', '--', own], {cwd: root})
  const tracked = (await git(['ls-files', '-z', '--', own], {cwd: root})).stdout.split('\0').filter(Boolean)
  if (tracked.length > 0) await git(['add', '--update', '--', ...tracked], {cwd: root})
}

/**
 * Pulls into a temporary worktree of the checked-out commit and commits the
 * result to `branch` when it proposes something the branch does not yet.
 */
export async function pullToBranch(input: BranchPull): Promise<BranchOutcome> {
  const {checkout, branch} = input
  await checkNotCheckedOut(checkout, branch)
  const tip = input.tip ?? (await branchTip(checkout.top, branch))
  return inWorktree(checkout, async (worktree) => {
    const run = await input.runPull(worktree.dir)
    if (run.result === undefined || run.result.status === 'failed') return {status: 'failed', code: run.code}
    await stage(worktree.root, checkout.relDir)
    const tree = await gitText(['write-tree'], {cwd: worktree.root})
    const edits = await changesBetween(checkout.top, checkout.head, tree, checkout.relDir)
    const found = {code: run.code, ...(tip !== undefined ? {commit: tip} : {})}
    if (edits.size === 0) return {status: 'nothing', ...found}
    const {plan, conflicts} = run.result
    const summary = summarise(plan.ops, conflicts, checkout.relDir, new Set(edits.keys()))
    if (tip !== undefined && (await holdsEdits(checkout, tip, tree, edits)))
      return {status: 'unchanged', ...found, summary}
    const own = await changesBetween(checkout.top, tip ?? checkout.head, tree, checkout.relDir)
    const added = summarise(plan.ops, conflicts, checkout.relDir, new Set(own.keys()))
    const message = commitMessage(added, input.source)
    const commit = await commitTree(checkout, {tree, tip, message, branch})
    return {status: 'committed', code: run.code, commit, summary, added}
  })
}
