/**
 * Where the body of a pulled file sits: after its front matter and a blank
 * line (`documentText`), lines the scan blanks. The proof parses the body
 * there, so what it finds is what the check after the pull would find by
 * parsing the file (`PulledBody.parsed`); a place guessed wrong only costs
 * that parse (the check's key then differs).
 */
import {reserveHandedTree, type LocalPermissions, type ScanResult, type SyncState} from '../../local/index.js'
import type {BodyPlace} from '../shared/document-body.js'
import {documentText} from '../shared/document-files.js'
import {declaredPermissions} from '../shared/declared-permissions.js'
import {isLockOf} from '../shared/lock-shape.js'
import type {Layout} from '../shared/document-layout.js'
import type {RemoteSnapshot} from '../shared/remote.js'

/** The front matter fields of a pulled document file (`documentText`). */
export type FileFields = Parameters<typeof documentText>[0]

/** The place of the body in a document file whose front matter holds `fields`. */
export function bodyPlaceOf(fields: FileFields): BodyPlace {
  // A title on one line is one YAML line (no folding: `lineWidth: 0`): `---`, title, `kb_id`, three lines of
  // permissions, `---`, a blank line. Counted without writing the YAML, which costs more than the count.
  if (!/[\r\n\u0085\u2028\u2029]/.test(fields.title))
    return {linesBefore: 4 + (fields.id !== undefined ? 1 : 0) + (fields.permissions ? 3 : 0)}
  const text = documentText(fields, '.')
  let linesBefore = 0
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) linesBefore++
  return {linesBefore}
}

/**
 * `place`, with the proof's tree handed over to the check while the bound
 * allows (`reserveHandedTree`): the check then renders that tree instead of
 * parsing the file it wrote; past the bound it parses, as before.
 */
export function withTree(place: BodyPlace): BodyPlace {
  return reserveHandedTree() ? {...place, withTree: true} : place
}

/**
 * The permissions the document `id` declares after the pull: as read, else
 * (not read) as its file `inFile` has them. The lock push sets (config `lock`)
 * is the platform's: never written into a file that did not declare it.
 */
export function declaredAfterPull(
  remote: RemoteSnapshot,
  state: SyncState,
  id: string,
  inFile: LocalPermissions | undefined
): LocalPermissions | undefined {
  if (!(id in remote.permissions)) return inFile
  const read = declaredPermissions(remote.items[id]!.type, remote.permissions[id])
  return inFile === undefined && isLockOf(read, state.publisher) ? undefined : read
}

/** Whether a new file gets a `kb_id` line: the folder's documents carry them, or it has none (a first pull). */
export function newFilesGetIds(scan: ScanResult): boolean {
  const nodes = Object.values(scan.byPath)
  return nodes.every((node) => node.file === undefined) || nodes.some((node) => node.kbId !== undefined)
}

/**
 * The likely place of the body of `id` when its record arrives (before the
 * plan): its file where the layout puts it, a `kb_id` line as the documents
 * step decides it, its permissions as read so far.
 */
export function likelyPlace(
  setting: {remote: RemoteSnapshot; state: SyncState; scan: ScanResult; layout: Layout; newIds: boolean},
  id: string
): BodyPlace | undefined {
  const {remote, state, scan, layout} = setting
  const item = remote.items[id]
  const at = layout.paths.get(id)
  if (item === undefined || at === undefined) return undefined
  const existing = scan.byPath[at]
  const withId = existing && existing.file !== undefined ? existing.kbId !== undefined : setting.newIds
  const permissions = item.type === 'article' ? declaredAfterPull(remote, state, id, existing?.permissions) : undefined
  return bodyPlaceOf({title: item.title, ...(withId ? {id} : {}), ...(item.type === 'article' ? {permissions} : {})})
}
