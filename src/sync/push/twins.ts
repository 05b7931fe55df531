/**
 * Twins: remote items that repeat an item the folder tracks (what two pushes
 * at once left behind before creates converged, `converge.ts`, or a run
 * killed between its create and its check). A twin is an item under the root
 * that no document maps to, kbsync never created or matched, of the same
 * type and title as a tracked item, whose parent is that item's parent or a
 * twin of it. The plan warns about each (naming both ids); with
 * `removeTwins` it deletes them, with the same guards as `--prune`: only
 * under the root, children first, a topic only when everything inside it is
 * a twin too, at most `maxDeletions` without `yes`; and at delete time only
 * when the twin's body equals the tracked item's and the same account wrote
 * both (`twinStillRepeats`).
 */
import type {Diagnostic} from '../../local/index.js'
import type {RemoteItem, RemoteSnapshot} from '../shared/remote.js'
import {comparableBody} from '../../api/writes.js'
import type {Orphan, SyncClient} from '../shared/types.js'
import {foldRemote} from './remote-fold.js'

/** A twin and the tracked item it repeats. */
export interface Twin {
  remoteId: string
  /** The tracked item it repeats (kept). */
  of: string
  /** Whether it may be deleted: a topic only when every item inside it is a twin. */
  removable: boolean
}

const key = (item: RemoteItem, parentId: string | null) =>
  `${parentId ?? ''}\u0000${item.type}\u0000${item.title.trim()}`

/** The twins among `orphans` (pure): each orphan kbsync does not know that repeats a tracked item (`mapped`: ids the documents map to). */
export function findTwins(remote: RemoteSnapshot, orphans: Orphan[], mapped: Set<string>): Twin[] {
  const candidates = new Set(orphans.filter((o) => o.path === undefined).map((o) => o.remoteId))
  // The tracked item each (parent, type, title) names, and what each twin stands for.
  const tracked = new Map<string, string>()
  for (const id of mapped) {
    const item = remote.items[id]
    if (item) tracked.set(key(item, item.parentId), id)
  }
  const standsFor = new Map<string, string>()
  const twins: Twin[] = []
  // Parents before children: a twin's parent is a tracked item's parent, or the twin of one.
  foldRemote<boolean>(remote, {
    enter(id) {
      if (!candidates.has(id)) return
      const item = remote.items[id]!
      const parent = item.parentId === null ? null : (standsFor.get(item.parentId) ?? item.parentId)
      const of = tracked.get(key(item, parent))
      if (of !== undefined && of !== id) standsFor.set(id, of)
    },
    leave(id, children) {
      const of = standsFor.get(id)
      if (of === undefined) return false
      const removable = children.every(Boolean)
      twins.push({remoteId: id, of, removable})
      return removable
    }
  })
  return twins
}

/** The plan's warning about a twin: both ids, and the command that removes it. */
export function twinWarning(twin: Twin, remote: RemoteSnapshot): Diagnostic {
  const item = remote.items[twin.remoteId]!
  const how = twin.removable
    ? '`kbsync push --remove-twins` deletes it'
    : 'it holds items that are not twins, so it is not deleted'
  return {
    severity: 'warning',
    message: `${item.type} "${item.title}" ${twin.remoteId} looks like a twin of ${twin.of} (same parent, same title; two pushes at once?): ${how}`,
    hint: 'Twins are left by concurrent pushes that ran before kbsync converged them; check that the kept item holds what you expect',
    rule: 'twin'
  }
}

/**
 * Read right before a twin is deleted: why it no longer repeats the tracked
 * item `of` (another body, another author), or undefined when it still does.
 * A topic's body is compared as well; an item gone counts as differing.
 */
export async function twinDiffers(client: SyncClient, id: string, of: string): Promise<string | undefined> {
  const [twin, kept] = await Promise.all([client.getItem(id), client.getItem(of)])
  if (twin.type !== kept.type || twin.title.trim() !== kept.title.trim()) return `${id} no longer repeats ${of}`
  if (comparableBody(twin.body ?? '', twin.title) !== comparableBody(kept.body ?? '', kept.title))
    return `its body differs from ${of}'s (edited since?)`
  if (twin.author && kept.author && twin.author.id !== kept.author.id) return `another account created it than ${of}`
  return undefined
}
