/**
 * Files renamed *and* edited in one change, found the way git finds them:
 * an article vanished (its item still on the remote, claimed by no file), a
 * new file appeared, and the new body is mostly the item's body. Such a file
 * updates the item instead of creating a new one beside an orphan, so the
 * article keeps its id, its URL and its permissions. In one folder, the one
 * vanished article and the one new file are compared; across folders (a file
 * moved, renamed and edited at once), every pair of those left, when few
 * enough articles vanished to read each one's record.
 */
import path from 'node:path'
import type {LocalNode, ScanResult, SyncState} from '../../local/index.js'
import {vanishedArticles, type Matching} from './match.js'
import {planRenderContext} from './render-context.js'
import type {RemoteDetail, RemoteSnapshot} from './remote.js'
import {renderBody} from './render.js'

/** Share of lines two bodies must have in common to be one article renamed and edited. */
export const similarEnough = 0.5

/** Vanished articles compared across folders, at most: each costs a read of its record. */
export const crossFolderLimit = 20

/** Pairs compared across folders, at most (each renders the file and compares the lines). */
export const crossFolderPairs = 5000

/** A new file and the vanished item it may be. */
export interface RenameCandidate {
  node: LocalNode
  id: string
}

/**
 * The pairs to check (pure): per folder, the one vanished article and the
 * one new file, when both are alone; then every pair of the vanished
 * articles and new files left, when at most `crossFolderLimit` articles
 * and `crossFolderPairs` pairs are left.
 */
export function renameCandidates(
  scan: ScanResult,
  remote: RemoteSnapshot,
  state: SyncState,
  matching: Matching
): RenameCandidate[] {
  const nodes = Object.values(scan.byPath).filter((node) => node.path !== '')
  const folderOf = (docPath: string) => path.posix.dirname(docPath)
  // Grouped in place: a copy of the group per entry made a folder of thousands quadratic.
  const vanished = new Map<string, string[]>()
  for (const [key, entry] of vanishedArticles(nodes, remote, state, new Set(matching.ids.values()))) {
    if (remote.items[entry.id!]!.type !== 'article') continue
    const group = vanished.get(folderOf(key))
    if (group) group.push(entry.id!)
    else vanished.set(folderOf(key), [entry.id!])
  }
  if (vanished.size === 0) return []
  const added = new Map<string, LocalNode[]>()
  for (const node of nodes) {
    if (node.kind !== 'article' || node.kbId || node.body === undefined || matching.ids.has(node.path)) continue
    const group = added.get(folderOf(node.path))
    if (group) group.push(node)
    else added.set(folderOf(node.path), [node])
  }
  const candidates: RenameCandidate[] = []
  for (const [folder, ids] of vanished) {
    const nodes = added.get(folder) ?? []
    if (ids.length === 1 && nodes.length === 1) candidates.push({node: nodes[0]!, id: ids[0]!})
  }
  const paired = new Set(candidates.map((candidate) => candidate.id))
  const pairedNodes = new Set(candidates.map((candidate) => candidate.node))
  const leftIds = [...vanished.values()].flat().filter((id) => !paired.has(id))
  const leftNodes = [...added.values()].flat().filter((node) => !pairedNodes.has(node))
  if (leftIds.length <= crossFolderLimit && leftIds.length * leftNodes.length <= crossFolderPairs)
    for (const id of leftIds) for (const node of leftNodes) candidates.push({node, id})
  return candidates
}

/**
 * Claims, in `matching`, the candidates whose rendered body shares at least
 * `similarEnough` of its lines with the item's body (`details`, read for the
 * candidates): the most similar pair first, each file and each item once,
 * none where two pairs tie for a file or an item. Returns the pairs claimed.
 */
export function claimSimilar(
  candidates: readonly RenameCandidate[],
  details: Record<string, RemoteDetail>,
  scan: ScanResult,
  remote: RemoteSnapshot,
  state: SyncState,
  matching: Matching
): RenameCandidate[] {
  const context = planRenderContext(scan, remote, matching.ids, state)
  const scored: Array<{candidate: RenameCandidate; score: number}> = []
  for (const candidate of candidates) {
    const detail = details[candidate.id]
    if (!detail) continue
    const score = similarity(renderBody(candidate.node, context).body, detail.body)
    if (score >= similarEnough) scored.push({candidate, score})
  }
  scored.sort((a, b) => b.score - a.score)
  const claimed: RenameCandidate[] = []
  // Items and files out of the running: claimed, or part of a tie.
  const takenIds = new Set<string>()
  const takenPaths = new Set<string>()
  const open = ({candidate}: (typeof scored)[number]) =>
    !matching.ids.has(candidate.node.path) && !takenIds.has(candidate.id) && !takenPaths.has(candidate.node.path)
  for (const pair of scored) {
    if (!open(pair)) continue
    const {candidate, score} = pair
    // Two files as like the item, or two items as like the file: no way to tell which is which, so none is claimed.
    const rivals = scored.filter(
      (other) =>
        other !== pair &&
        other.score === score &&
        open(other) &&
        (other.candidate.id === candidate.id || other.candidate.node === candidate.node)
    )
    if (rivals.length > 0) {
      for (const tied of [pair, ...rivals]) {
        takenIds.add(tied.candidate.id)
        takenPaths.add(tied.candidate.node.path)
      }
      continue
    }
    matching.ids.set(candidate.node.path, candidate.id)
    matching.how.set(candidate.node.path, 'edited')
    takenIds.add(candidate.id)
    claimed.push(candidate)
  }
  return claimed
}

/** Dice coefficient of the non-blank lines of two texts (as multisets, trimmed): 1 for the same lines, 0 for none in common. */
export function similarity(a: string, b: string): number {
  const lines = (text: string) =>
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
  const left = lines(a)
  const right = lines(b)
  if (left.length + right.length === 0) return 1
  const counts = new Map<string, number>()
  for (const line of left) counts.set(line, (counts.get(line) ?? 0) + 1)
  let shared = 0
  for (const line of right) {
    const n = counts.get(line) ?? 0
    if (n > 0) {
      shared++
      counts.set(line, n - 1)
    }
  }
  return (2 * shared) / (left.length + right.length)
}
