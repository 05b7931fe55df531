/**
 * Moves of a pull: documents whose item moved (or whose folder did) go
 * through a staging folder, so swaps and moves into moved folders work,
 * all inside the folder; the state is re-keyed and saved at once, so a
 * pull stopped from then on finds the files where they are.
 */
import path from 'node:path'
import {existsInside, removeInside, renameInside, type SyncState} from '../../local/index.js'
import {assetsFolder} from './assets.js'
import {removeIfEmpty} from './empty-folders.js'
import type {PullOp, PullPlan} from './plan.js'
import type {PullResult} from './types.js'

/** Where moves are staged, relative to the folder. */
export const stagingFolder = '.kbsync/moving'

/** The ops of `plan` that move a document's files. */
export function movesOf(plan: PullPlan): PullOp[] {
  return plan.ops.filter((op) => op.from !== undefined && op.op !== 'delete' && op.op !== 'conflict')
}

/** Where `docPath` is after `moves`: where it moved itself, or under the deepest moved folder above it. */
export function movedPath(docPath: string, moves: readonly PullOp[]): string {
  let move: PullOp | undefined
  for (const m of moves) {
    const applies = docPath === m.from || (m.type === 'topic' && docPath.startsWith(m.from! + '/'))
    if (applies && (!move || m.from!.length > move.from!.length)) move = m
  }
  return move ? move.path + docPath.slice(move.from!.length) : docPath
}

/** `op` with its path (and file) under the place a moved folder above it went to. */
export function relocated(op: PullOp, moves: readonly PullOp[]): PullOp {
  return {...op, path: movedPath(op.path, moves), file: movedPath(op.file, moves)}
}

/** Re-keys the state entries of moved documents (and of everything under a moved folder) to where they now are. */
export function rekeyMoved(state: SyncState, moves: readonly PullOp[]): void {
  const items: SyncState['items'] = {}
  for (const [key, entry] of Object.entries(state.items)) items[movedPath(key, moves)] = entry
  state.items = items
}

/** Moves `from` to `to` when it is there: creating the target's parent first left empty `_assets` folders. */
function moveIfPresent(dir: string, from: string, to: string): void {
  if (existsInside(dir, from)) renameInside(dir, from, to)
}

/** Moves documents through `.kbsync/moving/` (deepest sources first out, shallowest targets first in), all inside the folder. */
export function applyMoves(dir: string, moves: readonly PullOp[], result: PullResult): void {
  if (moves.length === 0) return
  const depth = (p: string) => p.split('/').length
  const staged: Array<{op: PullOp; temp: string}> = []
  for (const op of [...moves].sort((a, b) => depth(b.from!) - depth(a.from!))) {
    const temp = `${stagingFolder}/${staged.length}`
    removeInside(dir, temp)
    renameInside(dir, op.from!, temp)
    if (op.type === 'article') {
      moveIfPresent(dir, assetsFolder(op.from!), temp + '.assets')
      // The `_assets` folder it leaves may hold nothing else now.
      removeIfEmpty(dir, path.posix.dirname(assetsFolder(op.from!)))
    }
    staged.push({op, temp})
  }
  for (const {op, temp} of staged.sort((a, b) => depth(a.op.path) - depth(b.op.path))) {
    renameInside(dir, temp, op.path)
    if (op.type === 'article') moveIfPresent(dir, temp + '.assets', assetsFolder(op.path))
    result.written.push(op.path)
  }
  removeInside(dir, stagingFolder)
}
