/**
 * Identity: which remote item each local document is. In order: front
 * matter `kb_id` (of this knowledge base: `foreign-ids.ts` sets aside those
 * of another the state knows); the sync state (by path); a file that moved or was renamed
 * (a path the state knows vanished, and exactly one new file has its content
 * or its name, or renders to the body last pushed for it); a topic whose known children all sit in one remote topic;
 * finally the title under the same parent, when exactly one remote sibling
 * has it (local titles are distinct: the scan tells duplicates apart). A
 * rename or a move is thus an update of the same item, never a delete and a
 * create.
 */
import path from 'node:path'
import type {Diagnostic, LocalNode, LocalTopic, ScanResult, StateEntry, SyncState} from '../../local/index.js'
import {planRenderContext} from './render-context.js'
import type {RemoteSnapshot} from './remote.js'
import {renderBody} from './render.js'

/** How a document was matched. */
export type MatchReason = 'kb_id' | 'state' | 'moved' | 'content' | 'edited' | 'children' | 'title'

/** The outcome of matching. */
export interface Matching {
  /** Remote id by local path. */
  ids: Map<string, string>
  how: Map<string, MatchReason>
  /** Paths whose state entry pointed at an item that is gone from the remote. */
  remoteGone: Set<string>
  diagnostics: Diagnostic[]
}

/** Matches the scanned documents to remote items (pure). */
export function matchItems(scan: ScanResult, remote: RemoteSnapshot, state: SyncState): Matching {
  const ids = new Map<string, string>()
  const how = new Map<string, MatchReason>()
  const remoteGone = new Set<string>()
  const diagnostics: Diagnostic[] = []
  const claimed = new Set<string>()
  const nodes = Object.values(scan.byPath).filter((node) => node.path !== '')
  const claim = (node: LocalNode, id: string, reason: MatchReason) => {
    ids.set(node.path, id)
    how.set(node.path, reason)
    claimed.add(id)
  }
  const fits = (node: LocalNode, id: string) => remote.items[id]?.type === node.kind && !claimed.has(id)

  for (const node of nodes) {
    if (!node.kbId) continue
    const item = remote.items[node.kbId]
    if (!item) {
      diagnostics.push({
        severity: 'error',
        file: node.file ?? node.path,
        line: 1,
        message: `kb_id ${node.kbId} is not an item under the configured root`,
        hint: 'It was deleted on the platform, or lies outside the root: remove the kb_id to create the item anew',
        rule: 'unknown-kb-id'
      })
    } else if (item.type !== node.kind) {
      diagnostics.push({
        severity: 'error',
        file: node.file ?? node.path,
        line: 1,
        message: `kb_id ${node.kbId} is a ${item.type}, but this is a ${node.kind}`,
        rule: 'kb-id-type'
      })
    } else {
      claim(node, node.kbId, 'kb_id')
    }
  }
  for (const node of nodes) {
    if (ids.has(node.path) || node.kbId) continue
    const id = state.items[node.path]?.id
    if (id === undefined) continue
    if (fits(node, id)) claim(node, id, 'state')
    else if (!remote.items[id]) remoteGone.add(node.path)
  }
  matchMoved(nodes, remote, state, claimed, (node, id) => claim(node, id, 'moved'), ids)
  matchByContent(scan, nodes, remote, state, claimed, (node, id) => claim(node, id, 'content'), ids)
  matchTopDown(scan.root, remote, {ids, diagnostics, fits, claim})
  return {ids, how, remoteGone, diagnostics}
}

/** The title matches, topic by topic from the top: a file takes the one remote item of its title under its parent's item. */
function matchTopDown(
  root: LocalTopic,
  remote: RemoteSnapshot,
  context: {
    ids: Map<string, string>
    diagnostics: Diagnostic[]
    fits: (node: LocalNode, id: string) => boolean
    claim: (node: LocalNode, id: string, reason: MatchReason) => void
  }
): void {
  const {ids, diagnostics, fits, claim} = context
  // Each remote topic's children by title, made when a file under it is first matched: a filter of the
  // children per file made a folder of thousands of files new to the state quadratic.
  const byTitle = new Map<string | null, Map<string, string[]>>()
  const titled = (parentId: string | null) => {
    let children = byTitle.get(parentId)
    if (!children) {
      const list = parentId === remote.rootTopicId ? remote.top : (remote.items[parentId!]?.children ?? [])
      byTitle.set(parentId, (children = groupBy(list, (id) => remote.items[id]!.title.trim())))
    }
    return children
  }
  // `parentId` undefined: the parent is not on the remote yet, so nothing below it can match by title.
  // Depth first with an explicit stack (a topic chain may be deeper than a recursion can go), in the recursion's
  // order: what a topic's subtree claims is settled before its next sibling is matched.
  const stack: Array<{children: LocalNode[]; next: number; parentId: string | null | undefined}> = [
    {children: root.children, next: 0, parentId: remote.rootTopicId}
  ]
  while (stack.length > 0) {
    const frame = stack.at(-1)!
    if (frame.next >= frame.children.length) {
      stack.pop()
      continue
    }
    const child = frame.children[frame.next++]!
    const parentId = frame.parentId
    if (!ids.has(child.path) && !child.kbId && parentId !== undefined) {
      const siblings = (titled(parentId).get(child.title.trim()) ?? []).filter((id) => fits(child, id))
      if (siblings.length > 1) {
        // Which of them is this file's cannot be told: guessing would overwrite another item's text.
        diagnostics.push({
          severity: 'warning',
          file: child.file ?? child.path,
          message: `${siblings.length} remote items are titled "${child.title}" here (${siblings.join(', ')}); none is matched by title, so a new item is created`,
          hint: 'Pin the file to its item with front matter `kb_id`, or give the remote items distinct titles',
          rule: 'ambiguous-title'
        })
      }
      if (siblings.length === 1) claim(child, siblings[0]!, 'title')
      else if (child.kind === 'topic') {
        const id = topicByChildren(child, ids, remote)
        if (id !== undefined && fits(child, id)) claim(child, id, 'children')
      }
    }
    if (child.kind === 'topic') stack.push({children: child.children, next: 0, parentId: ids.get(child.path)})
  }
}

/** State entries of articles whose path is gone from the folder while their item is still on the remote and unclaimed. */
export function vanishedArticles(nodes: LocalNode[], remote: RemoteSnapshot, state: SyncState, claimed: Set<string>) {
  const present = new Set(nodes.map((node) => node.path))
  return Object.entries(state.items).filter(
    ([key, entry]) =>
      !present.has(key) &&
      entry.id !== undefined &&
      entry.type === 'article' &&
      remote.items[entry.id] &&
      !claimed.has(entry.id)
  )
}

/** Adds `entry` to the group of `key` in `groups`, in place (a copy per entry made a large group quadratic). */
function append<T>(groups: Map<string, T[]>, key: string, entry: T): void {
  const group = groups.get(key)
  if (group) group.push(entry)
  else groups.set(key, [entry])
}

/** The entries of `list` grouped by `keyOf` (each group in list order; an undefined key is left out). */
function groupBy<T>(list: readonly T[], keyOf: (entry: T) => string | undefined): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const entry of list) {
    const key = keyOf(entry)
    if (key !== undefined) append(groups, key, entry)
  }
  return groups
}

/** Whether exactly one entry of `list` passes `open` (stops at the second: a group is looked at per entry of it). */
function onlyOpen<T>(list: readonly T[] | undefined, open: (entry: T) => boolean): T | undefined {
  let found: T | undefined
  for (const entry of list ?? []) {
    if (!open(entry)) continue
    if (found !== undefined) return undefined
    found = entry
  }
  return found
}

/**
 * Renamed or moved files: a vanished state path whose content (else name)
 * exactly one unmatched file has, and no other vanished path. Files and
 * paths are grouped by that value once per key: looking each one up among
 * all the others made a folder of thousands of renamed files quadratic.
 */
function matchMoved(
  nodes: LocalNode[],
  remote: RemoteSnapshot,
  state: SyncState,
  claimed: Set<string>,
  claim: (node: LocalNode, id: string) => void,
  ids: Map<string, string>
): void {
  const vanished = vanishedArticles(nodes, remote, state, claimed)
  if (vanished.length === 0) return
  const open = nodes.filter((node) => node.kind === 'article' && !ids.has(node.path) && !node.kbId)
  for (const key of ['sourceHash', 'name'] as const) {
    const nodeValue = (node: LocalNode) => (key === 'sourceHash' ? node.sourceHash : path.posix.basename(node.path))
    const pathValue = ([oldPath, entry]: (typeof vanished)[number]) =>
      key === 'sourceHash' ? entry.sourceHash : path.posix.basename(oldPath)
    const filesBy = groupBy(open, nodeValue)
    const pathsBy = groupBy(vanished, pathValue)
    for (const pair of vanished) {
      const [, entry] = pair
      const value = pathValue(pair)
      if (claimed.has(entry.id!) || value === undefined) continue
      if (onlyOpen(pathsBy.get(value), ([, other]) => !claimed.has(other.id!)) !== pair) continue
      const node = onlyOpen(filesBy.get(value), (file) => !ids.has(file.path))
      if (node) claim(node, entry.id!)
    }
  }
}

/**
 * A file renamed (or moved) and retitled at once: its source hash and its
 * name both changed, but the body it renders to equals the body last pushed
 * for a vanished state path. Guarded like mark's `ResolveRenamed`: the
 * vanished entry's item is on the remote and unclaimed, and the hash is
 * unique on both sides (one open file, one vanished entry); otherwise the
 * file stays unmatched (create, and the old item is an orphan).
 */
function matchByContent(
  scan: ScanResult,
  nodes: LocalNode[],
  remote: RemoteSnapshot,
  state: SyncState,
  claimed: Set<string>,
  claim: (node: LocalNode, id: string) => void,
  ids: Map<string, string>
): void {
  const vanished = vanishedArticles(nodes, remote, state, claimed).filter(
    ([, entry]) => !entry.pending && remote.items[entry.id!]?.type === 'article'
  )
  if (vanished.length === 0) return
  const context = planRenderContext(scan, remote, ids, state)
  const hashes = new Map<string, LocalNode[]>()
  for (const node of nodes) {
    if (node.kind !== 'article' || ids.has(node.path) || node.kbId || node.body === undefined) continue
    const rendered = renderBody(node, context)
    if (rendered.missingLinks.length + rendered.missingAssets.length === 0) append(hashes, rendered.hash, node)
  }
  // An entry whose two hashes are one is one owner of it.
  const owners = new Map<string, StateEntry[]>()
  for (const [, entry] of vanished)
    for (const hash of new Set([entry.renderedHash, entry.remoteHash]))
      if (hash !== undefined) append(owners, hash, entry)
  for (const [hash, candidates] of hashes) {
    const owner = owners.get(hash)
    if (candidates.length === 1 && owner?.length === 1 && !claimed.has(owner[0]!.id!))
      claim(candidates[0]!, owner[0]!.id!)
  }
}

/** A renamed folder: the one remote topic that holds every already-matched child. */
function topicByChildren(topic: LocalTopic, ids: Map<string, string>, remote: RemoteSnapshot): string | undefined {
  const parents = new Set<string | null>()
  for (const child of topic.children) {
    const id = ids.get(child.path)
    if (id !== undefined) parents.add(remote.items[id]?.parentId ?? null)
  }
  if (parents.size !== 1) return undefined
  const [parent] = [...parents]
  return parent === null || parent === remote.rootTopicId ? undefined : parent
}
