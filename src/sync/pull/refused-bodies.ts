/**
 * Bodies a pull refuses: a record whose body on the platform kbsync cannot
 * convert without loss (over the parse budget of src/trust, nested past the
 * dialect's limit) is not written, and the refusal is kept in the state with
 * the item's `updated_at`. The next pull decides from the listing: while
 * `updated_at` stays, the record is not read again and the refusal is not
 * repeated (it was said once, when it was made); when it moves, the record
 * is read and judged anew.
 */
import type {Diagnostic, SyncState} from '../../local/index.js'
import {bodyTrouble, type RemoteDetail, type RemoteItem, type RemoteSnapshot} from '../shared/remote.js'

/** What pull does with a body it refuses: the `updated_at` to record it at (none known: read again next time), and the warning, when new. */
export interface Refusal {
  stamp?: string
  diagnostic?: Diagnostic
}

/** An item as the plan meets it: its record when read, and the file its document is (or would be). */
export interface PlannedItem {
  id: string
  item: RemoteItem
  detail: RemoteDetail | undefined
  file: string
}

/**
 * Whether pull refuses the body of `planned`: its record, read, cannot be
 * converted without loss, or it was not read because it was refused at this
 * `updated_at`. Undefined when it is pulled as usual. The warning is said once,
 * when the refusal is new: a pull that reads the record again for another
 * reason (a move) does not repeat it.
 */
export function refusalOf(state: SyncState, planned: PlannedItem): Refusal | undefined {
  const {id, item, detail, file} = planned
  const said = refusedAsListed(state, id, item)
  const trouble = detail ? bodyTrouble(detail) : undefined
  if (!trouble && (detail !== undefined || !said)) return undefined
  const refusal: Refusal = item.updatedAt !== undefined ? {stamp: item.updatedAt} : {}
  if (trouble && !said)
    refusal.diagnostic = {
      severity: 'warning',
      file,
      message: refusalMessage(item, id, trouble.reason),
      rule: trouble.ruleId ?? 'pull-skipped'
    }
  return refusal
}

/** Whether pull refused `item`'s body at its current `updated_at` (then its record need not be read). */
export function refusedAsListed(state: SyncState, id: string, item: RemoteItem): boolean {
  return item.updatedAt !== undefined && state.refusedBodies?.[id] === item.updatedAt
}

/**
 * The items whose records a pull may read when it needs every record (a
 * document moves, so relative links to it change): all but the bodies it
 * refused at their current `updated_at`, whose records would be refused again.
 */
export function readableIds(state: SyncState, remote: RemoteSnapshot): string[] {
  return Object.keys(remote.items).filter((id) => !refusedAsListed(state, id, remote.items[id]!))
}

/**
 * The warning for a refused body whose document the platform moved: pull
 * writes nothing for it, so its file stays where it is (said on every pull
 * until the file follows, as links to it now name the new place).
 */
export function stayingFile(item: RemoteItem, id: string, from: string, to: string): Diagnostic {
  return {
    severity: 'warning',
    file: from,
    message:
      `"${item.title}" (${item.type} ${id}) moved on the platform to \`${to}\`, but its body there is not pulled (kbsync cannot convert it without loss): ` +
      `the file stays at \`${from}\`, as it is. Move it there yourself (\`git mv ${from} ${to}\`) to follow the platform`,
    rule: 'pull-skipped'
  }
}

/**
 * The message of a refused body (its file is the diagnostic's): the item,
 * what is wrong, that no file is touched, and how to fix it. `reason` is the
 * parse guard's, whose last clause (`; it is kept as text. ...`) speaks for
 * push: pull keeps nothing as text.
 */
function refusalMessage(item: RemoteItem, id: string, reason: string): string {
  const cut = reason.indexOf('; it is kept as text')
  const why = cut === -1 ? reason.replace(/\.$/, '') : reason.slice(0, cut)
  return (
    `"${item.title}" (${item.type} ${id}) is not pulled: kbsync cannot convert its body on the platform without loss. ${why}. ` +
    'No file is written or changed for it: split the article on the platform into smaller ones (or shorten it), and the next pull reads it again. ' +
    'Until it changes there, pulls do not read it again nor repeat this message'
  )
}
