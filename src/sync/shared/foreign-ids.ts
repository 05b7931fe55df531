/**
 * Ids that belong to another knowledge base. A folder pulled from one
 * knowledge base (or pushed with `--write-ids`) carries front matter
 * `kb_id`s of that one; pushed to a second (staging to production, a fresh
 * start), those ids name nothing there, or, on another server, something
 * else. The state file keeps one state per target (`local/state-target.ts`),
 * so it can tell: a `kb_id` that another target's state recorded, and that
 * this target does not hold as that file's item, is that target's id. The
 * file is then matched as a file without one (by this target's state, by
 * path; the first time, a new item), and the file is not rewritten.
 *
 * Where nothing says the id is another target's (no state, or a state that
 * records nothing of it), an id this knowledge base does not know stays the
 * error `unknown-kb-id`: a typo or a deleted item is a real mistake.
 */
import type {Diagnostic, LocalNode, ScanResult, SyncState, TargetState} from '../../local/index.js'
import type {RemoteSnapshot} from './remote.js'

/** The rule of the info each such file gets (counted in one line, `local/diagnostic-groups.ts`). */
export const foreignIdRule = 'kb-id-other-target'

/** The ids each other target's state records (its label by id), and the ids of a format-1 state kept aside. */
function idsOfOtherTargets(state: SyncState): Map<string, string> {
  const labels = new Map<string, string>()
  const add = (items: unknown, label: string) => {
    if (items === null || typeof items !== 'object') return
    for (const entry of Object.values(items as Record<string, {id?: unknown}>)) {
      if (entry !== null && typeof entry === 'object' && typeof entry.id === 'string' && !labels.has(entry.id))
        labels.set(entry.id, label)
    }
  }
  for (const other of Object.values(state.others ?? {}) as TargetState[]) add(other?.items, other?.target?.label ?? '')
  const aside = state.aside as {items?: unknown} | undefined
  if (aside !== null && typeof aside === 'object') add(aside.items, 'the knowledge base of an older state file')
  return labels
}

/**
 * Whether the `kb_id` `id` of the file at `docPath` is another target's:
 * another target's state recorded it, and here it names no item, or not
 * the one this target's state holds for the file, or one it holds for
 * another file. In
 * a first sync with this target in a folder synced with others, an id this
 * knowledge base does not have is another's too.
 */
function isForeign(
  id: string,
  docPath: string,
  state: SyncState,
  remote: RemoteSnapshot,
  context: {elsewhere: Map<string, string>; ownIds: Set<string>}
): boolean {
  const own = state.items[docPath]?.id
  if (own === id) return false
  // Ids of two servers may coincide: one this target's state gives another file (or this file another id) is not this file's here.
  if (context.elsewhere.has(id))
    return !(id in remote.items) || (own !== undefined ? own !== id : context.ownIds.has(id))
  return state.known === false && context.elsewhere.size > 0 && !(id in remote.items)
}

/**
 * Sets aside the `kb_id`s of `scan` that belong to another knowledge base
 * (moved from `kbId` to `foreignKbId`, so matching treats the file as one
 * without an id); returns one info per such file. Runs again on a scan it
 * ran on (watch's rescans reuse nodes): an id set aside before is judged
 * anew.
 */
export function setAsideForeignIds(scan: ScanResult, state: SyncState, remote: RemoteSnapshot): Diagnostic[] {
  const elsewhere = idsOfOtherTargets(state)
  const ownIds = new Set(Object.values(state.items).flatMap((entry) => (entry.id ? [entry.id] : [])))
  const diagnostics: Diagnostic[] = []
  for (const node of Object.values(scan.byPath) as LocalNode[]) {
    if (node.foreignKbId !== undefined) {
      node.kbId ??= node.foreignKbId
      delete node.foreignKbId
    }
    const id = node.kbId
    if (id === undefined || !isForeign(id, node.path, state, remote, {elsewhere, ownIds})) continue
    node.foreignKbId = id
    delete node.kbId
    const other = elsewhere.get(id)
    diagnostics.push({
      severity: 'info',
      file: node.file ?? node.path,
      line: 1,
      message: `kb_id ${id} is an id of ${other ? other : 'another knowledge base'}, not of this one: the file is matched here by its path (a new item the first time), and is not rewritten`,
      rule: foreignIdRule
    })
  }
  return diagnostics
}
