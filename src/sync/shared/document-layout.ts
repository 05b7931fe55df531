/**
 * Where each remote item lives in the folder: a topic is a folder, an article
 * a `.md` file, named from its title (`names.ts`). An item the folder already
 * holds (front matter `kb_id`, else the sync state) keeps its name as long as
 * its parent stays the same, so a second pull renames nothing; a local file
 * that is no remote item keeps its name too (nothing is overwritten).
 */
import path from 'node:path'
import type {ScanResult, SyncState} from '../../local/index.js'
import type {RemoteSnapshot} from './remote.js'
import {matchItems} from './match.js'
import {assignNames, type NameRequest} from './names.js'

/** The folder layout of a remote tree. */
export interface Layout {
  /** Desired path by id: an article's `.md` file, a topic's folder. */
  paths: Map<string, string>
  /** Current path by id, where the folder holds the item already. */
  current: Map<string, string>
}

/** The file that holds a document: the article's file, or the topic's `_index.md`. */
export function documentFile(type: 'article' | 'topic', docPath: string): string {
  return type === 'article' ? docPath : docPath === '' ? '_index.md' : `${docPath}/_index.md`
}

/** Parent folder of a repo-relative path (`''` at the top). */
export function folderOf(docPath: string): string {
  const parent = path.posix.dirname(docPath)
  return parent === '.' ? '' : parent
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
  // What neither names (a folder pulled into without its state, such as a fresh clone of pushed docs): matched as a
  // push matches it, by title under the same parent, so a pull does not write a second copy of every document.
  if (current.size < Object.keys(remote.items).length && claimed.size < Object.keys(scan.byPath).length - 1) {
    const matching = matchItems(scan, remote, state)
    for (const [docPath, id] of matching.ids) {
      const how = matching.how.get(docPath)
      if ((how === 'title' || how === 'children') && !current.has(id) && !claimed.has(docPath)) {
        current.set(id, docPath)
        claimed.add(docPath)
      }
    }
  }
  return current
}

/** Computes the layout of `remote` in the scanned folder (pure). */
export function computeLayout(remote: RemoteSnapshot, state: SyncState, scan: ScanResult): Layout {
  const current = currentPaths(remote, state, scan)
  const mapped = new Set(current.values())
  const paths = new Map<string, string>()
  // Local documents that are no remote item keep their names: a pull never writes over them.
  const localNames = new Map<string, string[]>()
  for (const node of Object.values(scan.byPath)) {
    if (node.path === '' || mapped.has(node.path)) continue
    const folder = folderOf(node.path)
    localNames.set(folder, [...(localNames.get(folder) ?? []), path.posix.basename(node.path)])
  }
  // The id of the folder an item sits in now ('' for the top), so an item keeps its name while its parent is the same topic, even when that topic's folder moves.
  const idAt = new Map<string, string>([...current].map(([id, at]) => [at, id]))
  const parentNow = (at: string): string | undefined => (folderOf(at) === '' ? '' : idAt.get(folderOf(at)))
  const place = (folder: string, ids: string[], parentId: string): void => {
    const requests: NameRequest[] = ids.map((id) => {
      const item = remote.items[id]!
      const now = current.get(id)
      const request: NameRequest = {id, kind: item.type, title: item.title}
      if (now !== undefined && parentNow(now) === parentId) request.current = path.posix.basename(now)
      return request
    })
    const names = assignNames(requests, localNames.get(folder) ?? [])
    for (const id of ids) {
      const docPath = folder === '' ? names.get(id)! : `${folder}/${names.get(id)!}`
      paths.set(id, docPath)
      const item = remote.items[id]!
      if (item.type === 'topic') place(docPath, item.children, id)
    }
  }
  place('', remote.top, '')
  return {paths, current}
}
