/**
 * The remote side: the structure under the root (one tree read), and, only
 * for the items that need it, their full record (body, version) and
 * permissions.
 */
import {ApiError, withoutTitleHeading} from '../../api/index.js'
import type {ItemType, KbItem, Permissions} from '../../api/types.js'
import type {Root} from 'mdast'
import {VFile} from 'vfile'
import {asPlatformStores, isUnconvertible, parseKb, stringifyKb} from '../../dialect/index.js'
import {sha256} from '../../local/index.js'
import type {SyncClient} from './types.js'
import {trimLineEnds} from '../../trust/index.js'

/** One remote item as the structure shows it. */
export interface RemoteItem {
  id: string
  type: ItemType
  title: string
  /** Parent id; the configured root's id (or null) for top-level items. */
  parentId: string | null
  updatedAt?: string
  createdAt?: string
  children: string[]
}

/** A remote item's full record, read only where needed. */
export interface RemoteDetail {
  version: number
  updatedAt: string
  title: string
  /** The body as stored, without the `# title` heading the platform puts first. */
  body: string
  /** sha256 of `normalizeBody(body)`. */
  bodyHash: string
  /** guid -> file URL of the item's attachments. */
  attachments: Record<string, string>
  /** The attachments as listed (name and size identify a file when the state is lost). */
  files: Array<{guid: string; name: string; size: number; url: string}>
}

/** The remote tree under the root. */
export interface RemoteSnapshot {
  rootTopicId: string | null
  items: Record<string, RemoteItem>
  /** Ids of the root's children. */
  top: string[]
  /** Full records by id (filled for the items that needed them). */
  details: Record<string, RemoteDetail>
  /** Permissions by id (filled for the items whose permissions are declared and not known to match). */
  permissions: Record<string, Permissions>
}

/** Reads the structure under `rootTopicId` into a snapshot (no details yet). */
export async function readRemote(client: SyncClient, rootTopicId: string | null): Promise<RemoteSnapshot> {
  const nodes = await client.getTree(rootTopicId).catch((error: unknown) => {
    throw rootTopicId !== null && isUnknownTopic(error) ? new RootTopicError(rootTopicId) : error
  })
  const snapshot: RemoteSnapshot = {rootTopicId, items: {}, top: [], details: {}, permissions: {}}
  // Each item before what it holds, as a depth-first walk would list them; iterative, since topics may nest thousands deep.
  const stack = nodes.map((node) => ({node, parentId: rootTopicId, top: true})).reverse()
  for (let next = stack.pop(); next; next = stack.pop()) {
    const {node, parentId, top} = next
    const item: RemoteItem = {id: node.id, type: node.type, title: node.title, parentId, children: []}
    if (node.updated_at) item.updatedAt = node.updated_at
    if (node.created_at) item.createdAt = node.created_at
    snapshot.items[node.id] = item
    if (top) snapshot.top.push(node.id)
    else snapshot.items[parentId!]!.children.push(node.id)
    const children = node.children ?? []
    for (let at = children.length - 1; at >= 0; at--) stack.push({node: children[at]!, parentId: node.id, top: false})
  }
  return snapshot
}

/** The root topic a folder is mapped to is not in the knowledge base: the configuration is wrong, not the network. */
export class RootTopicError extends Error {
  constructor(readonly rootTopicId: string) {
    super(
      `the root topic ${rootTopicId} is not in the knowledge base (deleted, or a wrong id): check the root topic the folder is mapped to (kbsync: --root-topic, "rootTopic" in the config file or KBSYNC_ROOT_TOPIC)`
    )
    this.name = 'RootTopicError'
  }
}

/** Whether reading under a topic failed because there is no such topic. */
function isUnknownTopic(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false
  return (
    error.status === 404 ||
    error.errorCode === 'knowledge_base_not_found' ||
    error.errorCode === 'knowledge_base_invalid_parent'
  )
}

/** Body text normalised for comparing: LF line ends, no trailing blanks or spaces at line ends. */
export function normalizeBody(body: string): string {
  // Linear trims (trust/linear-text.ts): the regexes `/[ \t]+$/gm` and `/\s+$/` cost the square of a run of blanks.
  return trimLineEnds(body.replace(/\r\n?/g, '\n')).trimEnd().replace(/^\n+/, '')
}

/** Hash of a body for comparing with what was pushed. */
export function bodyHash(body: string): string {
  return sha256(normalizeBody(body))
}

/**
 * Lets go of `detail`'s body once its document is written: a pull then holds
 * the bodies still to write, not every body it read (at 30,000 articles that
 * is the difference); the version, hash and files stay for the state.
 */
export function releaseBody(detail: RemoteDetail | undefined): void {
  if (detail) detail.body = ''
}

const canonicalHashes = new WeakMap<RemoteDetail, string>()

/**
 * Whether `detail`'s body is the body whose hash is `hash`: as stored, or once
 * re-serialised in kbsync's canonical form, or (given `localBody`, that body's
 * text) as the platform stores that body. The platform may write a body in
 * another form of the dialect (unquoted attributes, other line breaks); each
 * form is computed only when the one before differs, the canonical one once.
 */
export function holdsBody(detail: RemoteDetail, hash: string, localBody?: () => string): boolean {
  if (detail.bodyHash === hash) return true
  let canonical = canonicalHashes.get(detail)
  if (canonical === undefined) {
    canonical = bodyHash(stringifyKb(parseKb(detail.body)))
    canonicalHashes.set(detail, canonical)
  }
  if (canonical === hash) return true
  // The platform stores a soft line break as a hard one: a wrapped paragraph comes back changed so, and is still ours.
  return localBody !== undefined && canonical === bodyHash(asPlatformStores(localBody()))
}

/** Why a body cannot be converted without loss, with the rule that says so (a VFileMessage, or its plain copy from a worker). */
export interface BodyTrouble {
  reason: string
  ruleId?: string | undefined
}

const troubles = new WeakMap<RemoteDetail, BodyTrouble | null>()

/** Notes what parsing `detail`'s body found elsewhere (a conversion worker) for `bodyTrouble`: its trouble, or none. */
export function noteTrouble(detail: RemoteDetail, trouble: BodyTrouble | undefined): void {
  troubles.set(detail, trouble ?? null)
}

/**
 * Why kbsync cannot convert `detail`'s body without loss (nesting deeper
 * than the dialect's limit, a parser failure), with its line in the body;
 * undefined when it can. A pull skips such an item, by name, rather than
 * write a file whose push would change the body. Parsed once per record (a
 * pull may plan twice).
 */
export function bodyTrouble(detail: RemoteDetail): BodyTrouble | undefined {
  if (!troubles.has(detail)) parseDetailBody(detail)
  return troubles.get(detail) ?? undefined
}

/** Parses `detail`'s body, noting its trouble for `bodyTrouble` on the way (pull parses each record once as it arrives). */
export function parseDetailBody(detail: RemoteDetail): Root {
  const file = new VFile({value: detail.body})
  const tree = parseKb(file)
  troubles.set(detail, file.messages.find(isUnconvertible) ?? null)
  return tree
}

/** Strips the `# <title>` heading the platform puts before an article's body. */
export function stripTitle(body: string | undefined, title: string): string {
  return withoutTitleHeading(body ?? '', title)
}

/** The URL of each of an item's attachments, by guid. */
export function attachmentUrls(item: KbItem): Record<string, string> {
  const attachments: Record<string, string> = {}
  for (const attachment of item.attachments ?? []) attachments[attachment.id] = attachment.url
  return attachments
}

/** Turns a full item record into the detail the planner compares. */
export function toDetail(item: KbItem): RemoteDetail {
  const body = stripTitle(item.body, item.title)
  const attachments = attachmentUrls(item)
  const files = (item.attachments ?? []).map((a) => ({guid: a.id, name: a.name, size: a.size, url: a.url}))
  return {
    version: item.version,
    updatedAt: item.updated_at,
    title: item.title,
    body,
    bodyHash: bodyHash(body),
    attachments,
    files
  }
}
