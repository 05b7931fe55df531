/**
 * Where each remote item lives in the folder: a topic is a folder, an article
 * a `.md` file, named from its title (`names.ts`). An item the folder already
 * holds (front matter `kb_id`, else the sync state) keeps its name, moved
 * or not, so a second pull renames nothing; a local file
 * that is no remote item keeps its name too (nothing is overwritten).
 */
import path from 'node:path'
import type {LocalNode, ScanResult, StateEntry, SyncState} from '../../local/index.js'
import {folderOf, homeFolderOf, isSectionKey, topicKeyKind} from './document-homes.js'
import type {RemoteSnapshot} from './remote.js'
import {entriesById} from './declared-permissions.js'
import {matchItems} from './match.js'
import {assignNames, type NameRequest} from './names.js'

export {folderOf} from './document-homes.js'

/** The folder layout of a remote tree. */
export interface Layout {
  /** Desired path by id: an article's `.md` file, a topic's folder. */
  paths: Map<string, string>
  /** Current path by id, where the folder holds the item already. */
  current: Map<string, string>
  /** The file holding each item's document after the pull, by id (`null`: a navigation section, which has no file). */
  files: Map<string, string | null>
}

/** The file that holds a document: the article's file, or the topic's `_index.md`. */
export function documentFile(type: 'article' | 'topic', docPath: string): string {
  return type === 'article' ? docPath : docPath === '' ? '_index.md' : `${docPath}/_index.md`
}

/**
 * The file holding the scanned document at `at` now: an article's file, a
 * topic's body file (a folder without one: where pull writes it,
 * `_index.md`), `''` for a navigation section, which has none.
 */
export function fileOfNode(scan: ScanResult, at: string, type: 'article' | 'topic'): string {
  const node = scan.byPath[at]
  if (type === 'article' || node?.kind !== 'topic') return documentFile(type, at)
  if (topicKeyKind(node) === 'section') return ''
  return node.file ?? documentFile('topic', at)
}

/** Whether a topic's path (a pull op's) is a folder: not a chapter's file, nor a navigation section. */
export function isTopicFolder(op: {type: 'article' | 'topic'; path: string; file: string}): boolean {
  return op.type === 'topic' && op.file !== op.path && !isSectionKey(op.path)
}

/** Current paths of remote items in the folder: front matter `kb_id` first, then the state (when the path still exists), then the title. */
export function currentPaths(remote: RemoteSnapshot, state: SyncState, scan: ScanResult): Map<string, string> {
  const current = new Map<string, string>()
  for (const node of Object.values(scan.byPath)) {
    if (node.kbId && remote.items[node.kbId]?.type === node.kind && !current.has(node.kbId))
      current.set(node.kbId, node.path)
  }
  const claimed = new Set(current.values())
  for (const [key, entry] of Object.entries(state.items)) {
    if (!entry.id || current.has(entry.id) || claimed.has(key)) continue
    const node = scan.byPath[key]
    if (node && !node.kbId && node.kind === entry.type) {
      current.set(entry.id, key)
      claimed.add(key)
    }
  }
  // What neither names is matched as push matches it, so both find a document at one place: a file moved or renamed
  // locally (by its content or name), a folder pulled into without its state (a fresh clone of pushed docs: by title
  // under the same parent). Otherwise pull took a moved file for a deleted one and wrote the web's copy at the old path.
  if (current.size < Object.keys(remote.items).length && claimed.size < Object.keys(scan.byPath).length - 1) {
    const matching = matchItems(scan, remote, state)
    for (const [docPath, id] of matching.ids) {
      if (!current.has(id) && !claimed.has(docPath)) {
        current.set(id, docPath)
        claimed.add(docPath)
      }
    }
  }
  return current
}

/** A folder a topic moves from, and where to. */
interface FolderMove {
  from: string
  to: string
}

/** Where `at` is after `moves`: under the deepest moved folder above it (or at it), else where it is. */
function relocate(at: string, moves: readonly FolderMove[]): string {
  let best: FolderMove | undefined
  for (const move of moves) {
    const under = at === move.from || at.startsWith(move.from + '/')
    if (under && (!best || move.from.length > best.from.length)) best = move
  }
  return best ? best.to + at.slice(best.from.length) : at
}

/** The names each folder holds now (files and folders of the scanned documents). */
function namesByFolder(scan: ScanResult): Map<string, Set<string>> {
  const names = new Map<string, Set<string>>()
  const add = (at: string) => {
    const folder = folderOf(at)
    if (!names.has(folder)) names.set(folder, new Set())
    names.get(folder)!.add(path.posix.basename(at))
  }
  for (const node of Object.values(scan.byPath)) {
    if (node.path === '') continue
    if (node.kind === 'article' || topicKeyKind(node) !== 'section') add(node.path)
    if (node.file !== undefined) add(node.file)
  }
  return names
}

/** Computes the layout of `remote` in the scanned folder (pure). */
export function computeLayout(remote: RemoteSnapshot, state: SyncState, scan: ScanResult): Layout {
  const current = currentPaths(remote, state, scan)
  const placing: Placing = {
    remote,
    scan,
    current,
    paths: new Map(),
    files: new Map(),
    moves: [],
    taken: namesByFolder(scan),
    idAt: new Map([...current].map(([id, at]) => [at, id])),
    synced: entriesById(state)
  }
  // Pre-order, without recursion (a tree's depth is the platform's): each parent's children are placed together.
  const order: string[] = []
  placeChildren(placing, '', remote.top)
  const stack = [...remote.top].reverse()
  while (stack.length > 0) {
    const id = stack.pop()!
    order.push(id)
    const item = remote.items[id]!
    if (item.type !== 'topic') continue
    placeChildren(placing, id, item.children)
    stack.push(...[...item.children].reverse())
  }
  const paths = new Map(order.map((id) => [id, placing.paths.get(id)!]))
  return {paths, current, files: placing.files}
}

/** What placing the remote items reads and fills. */
interface Placing {
  remote: RemoteSnapshot
  scan: ScanResult
  current: Map<string, string>
  paths: Map<string, string>
  files: Map<string, string | null>
  /** Folders of topics that move, so what they hold moves with them. */
  moves: FolderMove[]
  /** Names in use by folder. */
  taken: Map<string, Set<string>>
  /** The id of the item at each current path. */
  idAt: Map<string, string>
  /** Where the last sync left each item, by id: its path (key) and its state entry. */
  synced: Map<string, {key: string; entry: StateEntry}>
}

/**
 * Whether the document of `id`, now at `at`, was moved in the folder while
 * the platform left it under the parent of the last sync: the local move
 * stands (the next push makes it), as a local edit does.
 */
function movedOnlyLocally(placing: Placing, id: string, at: string): boolean {
  const synced = placing.synced.get(id)
  return synced !== undefined && synced.key !== at && synced.entry.parentId === placing.remote.items[id]!.parentId
}

/** The id of the topic the document at `at` sits under now ('' for the top). */
function parentNow(placing: Placing, at: string): string | undefined {
  const parent = placing.scan.byPath[at]?.parent ?? folderOf(at)
  return parent === '' ? '' : placing.idAt.get(parent)
}

/** The folder new children of `parentId` go to (its home folder where the moves take it). */
function homeOf(placing: Placing, parentId: string): string {
  if (parentId === '') return ''
  const now = placing.current.get(parentId)
  const node = now === undefined ? undefined : placing.scan.byPath[now]
  if (node?.kind !== 'topic' || topicKeyKind(node) === 'folder') return placing.paths.get(parentId)!
  return relocate(homeFolderOf(node), placing.moves)
}

/**
 * Places the children `ids` of `parentId`. One that stays under the same
 * parent keeps its path (where a moved folder above takes it); the others
 * (created on the platform, or moved under this parent) go to the parent's
 * home folder, named from their titles (a name in use there is not taken):
 * a new article is a file, a new topic a folder with `_index.md`. A moved
 * document keeps its name, in its folder (an outline's sections can share
 * one) or another where that name is free; a navigation section keeps its
 * key (only its entry moves).
 */
function placeChildren(placing: Placing, parentId: string, ids: readonly string[]): void {
  const {remote, scan, current, paths, files, moves} = placing
  const home = homeOf(placing, parentId)
  const names = placing.taken.get(home) ?? new Set<string>()
  placing.taken.set(home, names)
  const requests: NameRequest[] = []
  for (const id of ids) {
    const item = remote.items[id]!
    const now = current.get(id)
    const node = now === undefined ? undefined : scan.byPath[now]
    const stays = now !== undefined && (parentNow(placing, now) === parentId || movedOnlyLocally(placing, id, now))
    if (now !== undefined && node && (stays || isSection(node))) {
      const at = relocate(now, moves)
      paths.set(id, at)
      files.set(id, fileAt(node, at, moves))
      continue
    }
    const chapter = node?.kind === 'topic' && topicKeyKind(node) === 'file'
    const request: NameRequest = {id, kind: item.type, title: item.title, ...(chapter ? {extension: '.md'} : {})}
    if (now !== undefined && folderOf(now) === home) {
      request.current = path.posix.basename(now)
      names.delete(request.current)
    } else if (now !== undefined && keepsNameThere(path.posix.basename(now), home, names)) {
      // A move keeps the document's name, as `git mv` would (where the name is free: `assignNames`).
      request.current = path.posix.basename(now)
    }
    requests.push(request)
  }
  const named = assignNames(requests, names)
  for (const {id} of requests) {
    const name = named.get(id)!
    names.add(name)
    const at = home === '' ? name : `${home}/${name}`
    paths.set(id, at)
    const now = current.get(id)
    const node = now === undefined ? undefined : scan.byPath[now]
    if (node?.kind === 'topic' && topicKeyKind(node) === 'file') {
      files.set(id, at)
      continue
    }
    if (node?.kind === 'topic' && now !== at) moves.push({from: now!, to: at})
    // A moved folder keeps its body file (`index.md`, `README.md`...).
    const kept = node?.kind === 'topic' && node.file !== undefined ? relocate(node.file, moves) : undefined
    files.set(id, kept ?? documentFile(remote.items[id]!.type, at))
  }
}

/**
 * Whether a document moved into `home` may keep its file or folder `name`
 * there: not when the scan would read that name as `home`'s own body
 * (`index.md`, `README.md`, `home/home.md`, `x.md` beside a folder `x`,
 * a folder `x` beside `x.md`).
 */
function keepsNameThere(name: string, home: string, names: ReadonlySet<string>): boolean {
  const stem = name.replace(/\.mdx?$/i, '')
  if (stem === name) return !names.has(`${name}.md`) && !names.has(`${name}.mdx`)
  const body = /^(_index|index|readme)$/i.test(stem) || stem === path.posix.basename(home)
  return !body && !names.has(stem)
}

/** Whether `node` is a navigation section's topic (no file, no folder: only its entry says where it is). */
function isSection(node: LocalNode): boolean {
  return node.kind === 'topic' && topicKeyKind(node) === 'section'
}

/** The file of an item that stays under its parent: its file where the moves take it (a section has none). */
function fileAt(node: LocalNode, at: string, moves: readonly FolderMove[]): string | null {
  if (node.kind === 'article') return at
  if (topicKeyKind(node) === 'section') return null
  return node.file !== undefined ? relocate(node.file, moves) : documentFile('topic', at)
}
