/**
 * The repository a synced folder lives in, as `pull --branch` needs it: its
 * top, the folder's place in it, the checked-out commit and branch, and the
 * branch to commit to (which must not be checked out anywhere, or its
 * worktree would silently fall behind its own branch).
 */
import {realpath, stat} from 'node:fs/promises'
import path from 'node:path'
import {UsageError} from '../errors.js'
import {git, gitText} from './git.js'

/** The checkout a `pull --branch` starts from. */
export interface Checkout {
  /** The repository's top folder. */
  top: string
  /** The synced folder (absolute, in the checkout). */
  dir: string
  /** The synced folder relative to the top, `/`-separated (`''` for the top itself). */
  relDir: string
  /** The checked-out commit. */
  head: string
  /** The checked-out branch, when one is (not a detached HEAD). */
  branch?: string
}

/** The nearest folder of `dir` or above that exists (a pull may create the synced folder). */
async function existingFolder(dir: string): Promise<string> {
  let current = path.resolve(dir)
  while (!(await stat(current).catch(() => undefined))?.isDirectory()) {
    const parent = path.dirname(current)
    if (parent === current) break
    current = parent
  }
  return current
}

/** Reads the checkout of the synced folder `dir`; a usage error when it is in no git repository or one without a commit. */
export async function readCheckout(dir: string): Promise<Checkout> {
  const near = await existingFolder(dir)
  const top = await gitText(['rev-parse', '--show-toplevel'], {cwd: near}).catch(() => {
    throw new UsageError(`${dir} is not in a git repository: --branch and --pull-request commit to one`)
  })
  const realTop = await realpath(top)
  const realNear = await realpath(near)
  const relDir = path.relative(realTop, path.join(realNear, path.relative(near, path.resolve(dir))))
  if (relDir.startsWith('..') || path.isAbsolute(relDir))
    throw new UsageError(`${dir} is not inside the repository at ${top}`)
  const head = await gitText(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], {cwd: top, okCodes: [1, 128]})
  if (head === '')
    throw new UsageError(`the repository at ${top} has no commit yet: commit once, then pull to a branch`)
  const branch = await gitText(['symbolic-ref', '--quiet', '--short', 'HEAD'], {cwd: top, okCodes: [1]})
  return {top, dir: path.resolve(dir), relDir: relDir.split(path.sep).join('/'), head, ...(branch ? {branch} : {})}
}

/** Refuses a branch name git would not take (`git check-ref-format --branch`). */
export async function checkBranchName(name: string, cwd: string): Promise<void> {
  const answer = await git(['check-ref-format', '--branch', name], {cwd, okCodes: [1, 128]})
  if (answer.code !== 0 || name.startsWith('-'))
    throw new UsageError(`'${name}' is not a valid branch name (see git check-ref-format)`)
}

/** Refuses to commit to a branch checked out here or in another worktree. */
export async function checkNotCheckedOut(checkout: Checkout, branch: string): Promise<void> {
  if (checkout.branch === branch)
    throw new UsageError(
      `${branch} is the checked-out branch: run kbsync pull without --branch to pull into it, or name another branch`
    )
  const list = await gitText(['worktree', 'list', '--porcelain'], {cwd: checkout.top})
  const held = list.split('\n').some((line) => line === `branch refs/heads/${branch}`)
  if (held)
    throw new UsageError(`${branch} is checked out in another worktree (git worktree list): name another branch`)
}

/** The commit a local branch points at, if it exists. */
export async function branchTip(top: string, branch: string): Promise<string | undefined> {
  const tip = await gitText(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`], {
    cwd: top,
    okCodes: [1]
  })
  return tip === '' ? undefined : tip
}
