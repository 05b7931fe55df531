/**
 * The archive topic (`onOrphan: archive`): a topic at the folder's root,
 * titled `archiveTopic` (default `Archive`), that push moves orphans into
 * instead of deleting them. It is the platform's, not a folder of the tree:
 * push, status and pull take it and everything under it out of the remote
 * snapshot before matching, so what it holds is neither an orphan, a web
 * addition nor a file to write, and a second run is a no-op.
 */
import type {Diagnostic, SyncState} from '../../local/index.js'
import type {RemoteSnapshot} from './remote.js'

/** The archive topic's title when the config names none. */
export const defaultArchiveTopic = 'Archive'

/** What `hideArchive` found. */
export interface ArchiveTopic {
  title: string
  /** The topic's id; undefined while it does not exist (the first archive creates it). */
  id?: string
  /** Why archiving is refused (a folder of the tree holds the title): one error. */
  refused?: Diagnostic
}

/**
 * Finds the archive topic among the root's topics (the first titled
 * `title`, in any case, that no state entry names: a topic the state names is
 * a folder kbsync syncs) and removes it and everything under it from
 * `remote` (in place). A topic of that title that the state names refuses
 * archiving: moving orphans into a folder of the tree would make them files
 * on the next pull.
 */
export function hideArchive(remote: RemoteSnapshot, state: SyncState, title: string): ArchiveTopic {
  const named = new Set<string>()
  for (const entry of Object.values(state.items)) if (entry?.id) named.add(entry.id)
  const wanted = title.trim().toLowerCase()
  const topics = remote.top.filter((id) => {
    const item = remote.items[id]
    return item?.type === 'topic' && item.title.trim().toLowerCase() === wanted
  })
  const synced = topics.find((id) => named.has(id))
  if (synced !== undefined) return {title, refused: takenTitle(title)}
  const id = topics[0]
  if (id === undefined) return {title}
  for (const gone of subtreeOf(remote, id)) delete remote.items[gone]
  remote.top = remote.top.filter((top) => top !== id)
  return {title, id}
}

/** The error of an archive title that a synced folder holds. */
export function takenTitle(title: string): Diagnostic {
  return {
    severity: 'error',
    message: `the archive topic "${title}" is a folder of this tree (a topic at the root kbsync syncs): orphans moved into it would come back as files. Rename the folder, or name another archive topic (config "archiveTopic")`,
    rule: 'archive-topic-taken'
  }
}

/** `id` and every item under it, without recursion (a tree's depth is the platform's, not ours). */
export function subtreeOf(remote: Pick<RemoteSnapshot, 'items'>, id: string): string[] {
  const found: string[] = []
  const stack = [id]
  while (stack.length > 0) {
    const next = stack.pop()!
    found.push(next)
    for (const child of remote.items[next]?.children ?? []) stack.push(child)
  }
  return found
}
