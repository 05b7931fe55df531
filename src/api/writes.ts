/**
 * Writes that may have been applied although their answer was lost (a 5xx or
 * a dropped connection): before sending one again, the client looks whether
 * it took effect, so a fault never creates a duplicate or applies a write twice.
 */
import {ApiError} from './errors.js'
import {withoutTitleHeading} from './title-heading.js'
import {getStructure} from './tree.js'
import type {Transport} from './transport.js'
import {explainRefusedWrite} from './write-failure.js'
import type {CreateInput, KbItem, Permissions, PermissionsInput, StructureNode, UpdateInput} from './types.js'

/** How far a server's clock may lag behind ours when telling a fresh item from an older namesake. */
const CLOCK_SKEW_MS = 120_000

/** `GET /knowledgebase/{id}`. */
export function getItem(transport: Transport, id: string): Promise<KbItem> {
  // Attachment URLs are data, not trust: where downloads may carry the token is settled by download-access.ts alone.
  return transport.call<KbItem>({
    method: 'GET',
    base: 'api',
    path: `/knowledgebase/${encodeURIComponent(id)}`,
    endpoint: 'GET /knowledgebase/{id}',
    onFailure: 'retry'
  })
}

/**
 * `POST /knowledgebase`, never creating a duplicate: after a failure it reads
 * the parent's children; exactly one recent item of that type and title is
 * the one this call created; none means send again. A 5xx answer is retried
 * once (`writeServerErrorRetries`), then explained (`write-failure.ts`).
 */
export async function createItem(transport: Transport, input: CreateInput): Promise<KbItem> {
  const started = Date.now()
  return sendWrite(
    transport,
    {
      method: 'POST',
      path: '/knowledgebase',
      endpoint: 'POST /knowledgebase',
      json: input,
      verify: () => findCreated(transport, input, started)
    },
    input.body
  )
}

/** What tells a create or an update from the other: `sendWrite` adds what they share. */
interface Write {
  method: 'POST' | 'PUT'
  path: string
  endpoint: string
  json: unknown
  /** After a failure: the item if the write was applied after all. */
  verify: () => Promise<KbItem | undefined>
}

/**
 * Sends an article or topic write, looked for (`verify`) before it is sent
 * again: a 5xx answer is retried `writeServerErrorRetries` times, then
 * explained as the platform refusing `body` (`write-failure.ts`).
 */
async function sendWrite(transport: Transport, write: Write, body: string | undefined): Promise<KbItem> {
  try {
    return await transport.call<KbItem>({
      method: write.method,
      base: 'api',
      path: write.path,
      endpoint: write.endpoint,
      json: write.json,
      onFailure: 'verify',
      verify: write.verify,
      serverErrorRetries: transport.options.writeServerErrorRetries
    })
  } catch (error) {
    throw explainRefusedWrite(error, body)
  }
}

/**
 * The nodes among `children` that a create of `input` would make again: same
 * type and title (trimmed). Used to find a create whose answer was lost and,
 * by push, the twins a concurrent run made (`sync/push/converge.ts`).
 */
export function namesakes(children: StructureNode[], input: Pick<CreateInput, 'title' | 'type'>): StructureNode[] {
  const title = input.title.trim()
  return children.filter((n) => n.title.trim() === title && (input.type === undefined || n.type === input.type))
}

/** The direct children of a topic (`null`: the root), one `GET /knowledgebase/structure` of depth 1. */
export async function getChildren(transport: Transport, parent: string | null): Promise<StructureNode[]> {
  const structure = await getStructure(transport, {parentTopicId: parent, depth: 1})
  return structure.items ?? []
}

async function findCreated(transport: Transport, input: CreateInput, started: number): Promise<KbItem | undefined> {
  const parent = input.parent_topic_id ?? null
  const title = input.title.trim()
  const named = namesakes(await getChildren(transport, parent), input)
  const since = Math.floor((started - CLOCK_SKEW_MS) / 1000) * 1000
  const recent: KbItem[] = []
  for (const node of named) {
    const createdAt = node.created_at ? Date.parse(node.created_at) : Number.NaN
    if (!Number.isNaN(createdAt) && createdAt < since) continue
    const item = await getItem(transport, node.id)
    if (Date.parse(item.created_at) >= since || Number.isNaN(Date.parse(item.created_at))) recent.push(item)
  }
  if (recent.length === 1) return recent[0]
  if (recent.length > 1) {
    throw new ApiError(
      `POST /knowledgebase failed and ${recent.length} recent items titled "${title}" exist under ${parent ?? 'the root'}: not sending it again (it may have been created); re-run to match them`,
      {method: 'POST', path: '/knowledgebase', errorCode: 'create_outcome_unknown'}
    )
  }
  return undefined
}

/** The body of a PUT: `parent_topic_id` only with `parent_topic_id_changed`, so a body-only update never moves an item to the root. */
export function updatePayload(input: UpdateInput): Record<string, unknown> {
  const payload: Record<string, unknown> = {}
  if (input.title !== undefined) payload.title = input.title
  if (input.body !== undefined) payload.body = input.body
  if (input.parent_topic_id_changed) {
    payload.parent_topic_id = input.parent_topic_id ?? null
    payload.parent_topic_id_changed = true
  }
  return payload
}

/** A body as sent, for comparison: without the platform's `# title` line, file URLs back to guids, no trailing blanks. */
export function comparableBody(body: string, title?: string): string {
  const text = title === undefined ? body.replace(/\r\n?/g, '\n') : withoutTitleHeading(body, title)
  return text.replace(/https?:\/\/[^\s()"'<>]*\/services\/kb\?Id=([0-9A-Za-z-]+)/g, '$1').trimEnd()
}

/** Whether `item` already shows everything `input` asks for. */
export function showsUpdate(item: KbItem, input: UpdateInput): boolean {
  if (input.title !== undefined && item.title.trim() !== input.title.trim()) return false
  if (input.parent_topic_id_changed && (item.parent_topic_id ?? null) !== (input.parent_topic_id ?? null)) return false
  if (input.body !== undefined && comparableBody(item.body ?? '', item.title) !== comparableBody(input.body))
    return false
  return true
}

/**
 * `PUT /knowledgebase/{id}`; after a failure, re-sent only when a fresh read
 * does not already show the change. A 5xx answer is retried once, then explained.
 */
export async function updateItem(transport: Transport, id: string, input: UpdateInput): Promise<KbItem> {
  const write: Write = {
    method: 'PUT',
    path: `/knowledgebase/${encodeURIComponent(id)}`,
    endpoint: 'PUT /knowledgebase/{id}',
    json: updatePayload(input),
    verify: async () => {
      const item = await getItem(transport, id)
      return showsUpdate(item, input) ? item : undefined
    }
  }
  return sendWrite(transport, write, input.body)
}

/** `DELETE /knowledgebase/{id}`; after a failure, an item that is gone counts as deleted. */
export async function deleteItem(
  transport: Transport,
  id: string,
  options: {withChildren?: boolean} = {}
): Promise<boolean> {
  const answer = await transport.call<{deleted?: boolean}>({
    method: 'DELETE',
    base: 'api',
    path: `/knowledgebase/${encodeURIComponent(id)}`,
    endpoint: 'DELETE /knowledgebase/{id}',
    query:
      options.withChildren === undefined ? undefined : {delete_with_children: options.withChildren ? 'true' : 'false'},
    onFailure: 'verify',
    verify: async () => {
      try {
        await getItem(transport, id)
        return undefined
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return {deleted: true}
        throw error
      }
    }
  })
  return answer?.deleted === true
}

const ids = (people: Array<{id: number}> | undefined): string =>
  [...(people ?? []).map((p) => p.id)].sort((a, b) => a - b).join(',')
const sortedIds = (list: number[]): string => [...list].sort((a, b) => a - b).join(',')

/** `GET /knowledgebase/{id}/permissions`. */
export function getPermissions(transport: Transport, id: string): Promise<Permissions> {
  return transport.call<Permissions>({
    method: 'GET',
    base: 'api',
    path: `/knowledgebase/${encodeURIComponent(id)}/permissions`,
    endpoint: 'GET /knowledgebase/{id}/permissions',
    onFailure: 'retry'
  })
}

/** `PUT /knowledgebase/{id}/permissions`; after a failure, re-sent only when the permissions differ. */
export function setPermissions(transport: Transport, id: string, input: PermissionsInput): Promise<Permissions> {
  return transport.call<Permissions>({
    method: 'PUT',
    base: 'api',
    path: `/knowledgebase/${encodeURIComponent(id)}/permissions`,
    endpoint: 'PUT /knowledgebase/{id}/permissions',
    json: input,
    onFailure: 'verify',
    verify: async () => {
      const now = await getPermissions(transport, id)
      const same =
        (input.inherit === undefined || now.inherit === input.inherit) &&
        ids(now.readers) === sortedIds(input.readers) &&
        ids(now.editors) === sortedIds(input.editors)
      return same ? now : undefined
    }
  })
}
