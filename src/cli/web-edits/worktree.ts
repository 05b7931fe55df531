/**
 * A temporary worktree of the repository, at the checked-out commit, in
 * which a pull runs so that the checkout (its branch, index and files) is
 * never touched; removed whatever happens. The sync state the pull starts
 * from is the one of that commit: `.kbsync/` files the commit carries, and
 * for those it does not (the state is not committed, or is ignored), the
 * checkout's copies, which describe the same files as long as the checkout
 * was synced at that commit (as CI restores it from its cache).
 */
import {lstat, mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {readCacheFile, readKbsyncFile} from '../../trust/index.js'
import {git} from './git.js'

/** The state files a pull reads, and whether a bad one must stop it (the state) or is skipped (a cache). */
const stateFiles: ReadonlyArray<{name: string; cache: boolean}> = [
  {name: 'state.json', cache: false},
  {name: 'state.journal', cache: false},
  {name: 'body-cache.json', cache: true},
  {name: 'front-matter-cache.json', cache: true}
]

/** A temporary worktree: where it is, and the synced folder inside it. */
export interface Worktree {
  root: string
  dir: string
}

/**
 * Runs `work` in a detached worktree of commit `head` of the repository at `top`,
 * (the checked-out one) with the synced folder (`relDir` in it) given the checkout's state files it
 * lacks (from `dir`); the worktree is removed afterwards.
 */
export async function inWorktree<T>(
  repo: {top: string; dir: string; relDir: string; head: string},
  work: (tree: Worktree) => Promise<T>
): Promise<T> {
  const root = await mkdtemp(path.join(tmpdir(), 'kbsync-branch-'))
  try {
    await git(['worktree', 'add', '--detach', '--quiet', root, repo.head], {cwd: repo.top})
    const dir = path.join(root, repo.relDir)
    await copyState(repo.dir, dir)
    return await work({root, dir})
  } finally {
    await git(['worktree', 'remove', '--force', root], {cwd: repo.top}).catch(() => undefined)
    await rm(root, {recursive: true, force: true})
    await git(['worktree', 'prune'], {cwd: repo.top}).catch(() => undefined)
  }
}

/**
 * Gives `to/.kbsync/` the state files of `from/.kbsync/` it has not got
 * (read by the trust rules of kbsync's own files). Nothing is copied through
 * a `.kbsync` of the commit that is not a plain folder: the pull refuses it.
 */
async function copyState(from: string, to: string): Promise<void> {
  const folder = path.join(to, '.kbsync')
  const found = await lstat(folder).catch(() => undefined)
  if (found !== undefined && !found.isDirectory()) return
  for (const {name, cache} of stateFiles) {
    const rel = `.kbsync/${name}`
    if (await lstat(path.join(to, rel)).catch(() => undefined)) continue
    const text = cache ? await readCacheFile(from, rel) : await readKbsyncFile(from, rel)
    if (text === undefined) continue
    await mkdir(folder, {recursive: true})
    await writeFile(path.join(to, rel), text, {flag: 'wx'})
  }
}
