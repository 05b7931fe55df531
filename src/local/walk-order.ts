/**
 * Orders over a folder walk, each made with an explicit stack: a folder chain
 * may be as deep as the OS allows (about 2,000 levels), deeper than a
 * recursion can go. Every order is the one a recursion would take: a folder,
 * then its subfolders in turn (pre-order).
 */
import {isKeptFolder} from './kept-folder.js'
import type {WalkedDir} from './walk.js'

/** Every folder of `walked`, itself first, in folder order. */
export function allFolders(walked: WalkedDir): WalkedDir[] {
  const order: WalkedDir[] = []
  const stack = [walked]
  while (stack.length > 0) {
    const walk = stack.pop()!
    order.push(walk)
    for (let i = walk.dirs.length - 1; i >= 0; i--) stack.push(walk.dirs[i]!)
  }
  return order
}

/**
 * The folders under `walked` (itself included) that hold a document anywhere
 * inside, or a topic's folder a pull kept with its `.gitkeep` (`kept-folder.ts`):
 * the folders that are topics.
 */
export function foldersWithDocuments(walked: WalkedDir): Set<WalkedDir> {
  const order = allFolders(walked)
  const found = new Set<WalkedDir>()
  // A folder comes before its subfolders in `order`: walking it backwards settles every subfolder first.
  for (let i = order.length - 1; i >= 0; i--) {
    const walk = order[i]!
    if (walk.files.length > 0 || isKeptFolder(walk) || walk.dirs.some((dir) => found.has(dir))) found.add(walk)
  }
  return found
}

/** `walked` and, below it, the folders holding documents reached through folders holding documents, in folder order. */
export function documentFolders(walked: WalkedDir): WalkedDir[] {
  const withDocuments = foldersWithDocuments(walked)
  const order: WalkedDir[] = []
  const stack = [walked]
  while (stack.length > 0) {
    const walk = stack.pop()!
    order.push(walk)
    for (let i = walk.dirs.length - 1; i >= 0; i--) if (withDocuments.has(walk.dirs[i]!)) stack.push(walk.dirs[i]!)
  }
  return order
}

/** A copy of `walked` without the documents `files`. */
export function withoutFiles(walked: WalkedDir, files: ReadonlySet<string>): WalkedDir {
  if (files.size === 0) return walked
  const copy = (walk: WalkedDir): WalkedDir => ({
    ...walk,
    files: walk.files.filter((file) => !files.has(file)),
    dirs: []
  })
  const root = copy(walked)
  const stack: Array<[WalkedDir, WalkedDir]> = [[walked, root]]
  while (stack.length > 0) {
    const [walk, made] = stack.pop()!
    for (const dir of walk.dirs) {
      const sub = copy(dir)
      made.dirs.push(sub)
      stack.push([dir, sub])
    }
  }
  return root
}
