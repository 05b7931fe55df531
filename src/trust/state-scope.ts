/**
 * The sync state (`.kbsync/state.json`) is a cache of what the last runs
 * did, never a list of what this folder may write. `kbsync init` tells teams
 * to commit it, so a repository can carry any state: one mapping a file
 * (present, or deleted so that `--prune` cleans up after it) to another
 * team's article. Ids are therefore believed only inside the folder's own
 * remote subtree, the tree under its root topic just read: an entry naming
 * an item outside it is dropped before the state is used (matching,
 * planning, pruning, pulling), with one warning that counts them.
 *
 * An entry whose item is simply gone is not outside: an item deleted on the
 * platform leaves its entry pointing at nothing, and push recreates the file
 * (pull removes it). It is told apart by where the entry says its item was:
 * under the root, under an item of the tree, or under another item of the
 * state (a deleted topic's children). An entry whose recorded parent is
 * none of those was never this folder's; one that lies about its parent is
 * still only ever treated as deleted, never written, moved or deleted.
 */
import type {Diagnostic, StateEntry, SyncState} from '../local/index.js'

/** What of the remote tree the rule reads: the root and the items under it. */
export interface ScopeTree {
  rootTopicId: string | null
  items: Readonly<Record<string, unknown>>
}

/** How many dropped paths the warning names; the rest are counted. */
const namedMax = 5

/**
 * The keys of `state`'s entries that name an item outside the folder's
 * subtree `tree` (pure): an id not in the tree, recorded under a parent
 * that is neither the root, an item of the tree, nor an item of the state.
 */
export function entriesOutside(state: Pick<SyncState, 'items'>, tree: ScopeTree): string[] {
  const known = new Set<string>()
  for (const entry of Object.values(state.items)) if (typeof entry?.id === 'string') known.add(entry.id)
  const ours = (parentId: unknown) =>
    parentId === tree.rootTopicId ||
    (typeof parentId === 'string' && (Object.hasOwn(tree.items, parentId) || known.has(parentId)))
  return Object.entries(state.items)
    .filter(([, entry]) => isOutside(entry, tree, ours))
    .map(([key]) => key)
}

function isOutside(entry: StateEntry | undefined, tree: ScopeTree, ours: (parentId: unknown) => boolean): boolean {
  if (!entry || typeof entry !== 'object') return true
  if (entry.id === undefined) return false
  if (typeof entry.id !== 'string') return true
  return !Object.hasOwn(tree.items, entry.id) && !ours(entry.parentId)
}

/**
 * Drops from `state` (in place) the entries that name items outside the
 * folder's subtree `tree` (`entriesOutside`); returns the one warning that
 * says how many and which, or undefined when there were none.
 */
export function confineState(state: SyncState, tree: ScopeTree): Diagnostic | undefined {
  const outside = entriesOutside(state, tree)
  if (outside.length === 0) return undefined
  for (const key of outside) delete state.items[key]
  const named = outside.slice(0, namedMax).join(', ')
  const more = outside.length > namedMax ? ` and ${outside.length - namedMax} more` : ''
  const root = tree.rootTopicId === null ? 'the knowledge-base root' : `the root topic ${tree.rootTopicId}`
  return {
    severity: 'warning',
    file: '.kbsync/state.json',
    message:
      `${outside.length} ${outside.length === 1 ? 'entry names an item' : 'entries name items'} outside ${root} (${named}${more}): ` +
      'ignored, so nothing outside the folder is updated, moved or deleted',
    hint: 'The state is a cache of earlier runs, not a list of what the folder owns; a state carried by the repository may have been edited. kbsync writes a correct one at the end of this run',
    rule: 'state-outside-root'
  }
}
