/**
 * How the local server ties uploaded files to bodies, as the platform does:
 * a guid a body references for the first time is attached to the item and
 * replaced by the file's URL; an item's attachments are the files its body links.
 */
import type {KbAttachment} from '../api/types.js'
import {invalidRequest} from './errors.js'
import type {StoredFile} from './store-types.js'

const guidPattern = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi
// What comes right before a guid a body uses as a file: `](` or `](<`, or a `src`/`href` attribute in any quoting.
const referenceBefore = /(?:\(<?|(?:src|href)=["']?)$/i

/**
 * The body with each referenced guid replaced by its file URL, and the files
 * that now belong to the item. Re-sending the same guid for the same item (a
 * retried PUT) is accepted; a guid already attached elsewhere is refused (400).
 * Nothing is changed here: the caller attaches the files once the whole body is accepted.
 */
export function replaceGuids(
  itemId: string,
  body: string,
  files: ReadonlyMap<string, StoredFile>,
  fileUrl: (guid: string) => string
): {body: string; attached: StoredFile[]} {
  const attached: StoredFile[] = []
  const replaced = body.replace(guidPattern, (guid, offset: number) => {
    const file = files.get(guid.toLowerCase())
    // Only where a body refers to a file (an image's destination, `src` or `href`): a guid shown as text or code stays.
    if (!file || !referenceBefore.test(body.slice(Math.max(0, offset - 6), offset))) return guid
    if (file.attachedTo !== undefined && file.attachedTo !== itemId) {
      throw invalidRequest(`File ${guid} is already attached elsewhere; reference it by its URL.`)
    }
    attached.push(file)
    return fileUrl(file.guid)
  })
  return {body: replaced, attached}
}

/** The files a stored body links (`services/kb?Id=<guid>`), each once, as GET lists them. */
export function attachmentsOf(
  body: string,
  files: ReadonlyMap<string, StoredFile>,
  fileUrl: (guid: string) => string
): KbAttachment[] {
  const seen = new Set<string>()
  const attachments: KbAttachment[] = []
  for (const match of body.matchAll(/services\/kb\?Id=([0-9a-f-]{36})/gi)) {
    const file = files.get(match[1]!.toLowerCase())
    if (!file || seen.has(file.guid)) continue
    seen.add(file.guid)
    attachments.push({id: file.guid, name: file.name, size: file.size, url: fileUrl(file.guid)})
  }
  return attachments
}
