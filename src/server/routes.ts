/**
 * The API's routes: each maps a parsed request to a store operation and
 * answers plain data. HTTP details (auth, faults, limits) stay in `http.ts`.
 */
import {createHash, randomUUID} from 'node:crypto'
import type {IncomingMessage} from 'node:http'
import {Readable} from 'node:stream'
import type {CreateInput, PermissionsInput, Person, UpdateInput} from '../api/types.js'
import {invalidRequest, KbServerError} from './errors.js'
import type {KbStore, StoredFile} from './store.js'

/** Which endpoint a request hit (for the request log and counts). */
export type Endpoint =
  | 'get'
  | 'create'
  | 'update'
  | 'delete'
  | 'structure'
  | 'getPermissions'
  | 'setPermissions'
  | 'upload'
  | 'download'
  | 'auth'
  | 'browse'

/** A matched route. */
export interface Route {
  endpoint: Endpoint
  write: boolean
  /** Runs the operation; resolves to the JSON answer, or bytes for a download. */
  handle(request: RouteRequest): Promise<unknown>
}

/** What a route handler gets. */
export interface RouteRequest {
  url: URL
  message: IncomingMessage
  store: KbStore
  editor: Person
  maxDepth: number
  prefixTitle: boolean
  saveFile(file: StoredFile, bytes: Uint8Array): void
  readFile(guid: string): Uint8Array | undefined
}

/** Bytes answered by a download. */
export interface FileAnswer {
  kind: 'file'
  name: string
  bytes: Uint8Array
}

const itemPath = /^\/v4\/knowledgebase\/([A-Za-z0-9_-]+)$/
const permissionsPath = /^\/v4\/knowledgebase\/([A-Za-z0-9_-]+)\/permissions$/

/** Finds the route of a request, or undefined (404). */
export function matchRoute(method: string, pathname: string): Route | undefined {
  if (pathname === '/v4/knowledgebase/structure' && method === 'GET') {
    return {endpoint: 'structure', write: false, handle: structure}
  }
  if (pathname === '/v4/knowledgebase' && method === 'POST') {
    return {endpoint: 'create', write: true, handle: async (r) => r.store.create(await readJson<CreateInput>(r.message), r.editor)}
  }
  if (pathname === '/v4/files/upload' && method === 'POST') return {endpoint: 'upload', write: true, handle: upload}
  if (pathname === '/services/kb' && method === 'GET') return {endpoint: 'download', write: false, handle: download}
  const permissions = permissionsPath.exec(pathname)
  if (permissions) {
    const id = permissions[1]!
    if (method === 'GET') return {endpoint: 'getPermissions', write: false, handle: async (r) => r.store.permissions(id)}
    if (method === 'PUT') {
      return {
        endpoint: 'setPermissions',
        write: true,
        handle: async (r) => r.store.setPermissions(id, await readJson<PermissionsInput>(r.message), r.editor)
      }
    }
  }
  const item = itemPath.exec(pathname)
  if (item) {
    const id = item[1]!
    if (method === 'GET') return {endpoint: 'get', write: false, handle: async (r) => r.store.view(id, r.prefixTitle)}
    if (method === 'PUT') {
      return {endpoint: 'update', write: true, handle: async (r) => r.store.update(id, await readJson<UpdateInput>(r.message), r.editor)}
    }
    if (method === 'DELETE') {
      return {
        endpoint: 'delete',
        write: true,
        handle: async (r) => ({deleted: r.store.remove(id, r.url.searchParams.get('delete_with_children') === 'true')})
      }
    }
  }
  return undefined
}

async function structure(r: RouteRequest): Promise<unknown> {
  const raw = r.url.searchParams.get('parent_topic_id')
  const parent = raw === null || raw === '' || raw === 'null' ? null : raw
  const depthText = r.url.searchParams.get('depth')
  const asked = depthText === null ? 2 : Number(depthText)
  if (!Number.isInteger(asked) || asked < 1) throw invalidRequest('depth must be a positive integer.')
  const depth = Math.min(asked, r.maxDepth)
  return {parent_topic_id: parent, depth, items: r.store.structure(parent, depth)}
}

async function upload(r: RouteRequest): Promise<unknown> {
  const type = r.message.headers['content-type'] ?? ''
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    throw new KbServerError(400, 'no_file_in_request', 'Send the file as multipart/form-data in a part named file.')
  }
  const request = new Request('http://local/upload', {
    method: 'POST',
    headers: {'content-type': type},
    body: Readable.toWeb(r.message) as ReadableStream,
    duplex: 'half'
  } as RequestInit)
  let form: FormData
  try {
    form = await request.formData()
  } catch {
    throw new KbServerError(400, 'no_file_in_request', 'The multipart body could not be read.')
  }
  const part = form.get('file')
  if (!part || typeof part === 'string') throw new KbServerError(400, 'no_file_in_request', 'No part named file.')
  const bytes = new Uint8Array(await part.arrayBuffer())
  if (bytes.length === 0) throw new KbServerError(400, 'empty_file', 'The file is empty.')
  const md5 = createHash('md5').update(bytes).digest('hex')
  const file: StoredFile = {guid: randomUUID(), name: part.name || 'file', size: bytes.length, md5}
  r.saveFile(file, bytes)
  return {guid: file.guid, md5_hash: md5}
}

async function download(r: RouteRequest): Promise<FileAnswer> {
  const guid = (r.url.searchParams.get('Id') ?? '').toLowerCase()
  const file = r.store.file(guid)
  const bytes = file ? r.readFile(guid) : undefined
  if (!file || !bytes) throw new KbServerError(404, 'not_found', `No file ${guid}.`)
  return {kind: 'file', name: file.name, bytes}
}

/** Reads a JSON object body; anything else is a 400. */
export async function readJson<T>(message: IncomingMessage): Promise<T> {
  const chunks: Buffer[] = []
  for await (const chunk of message) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  let value: unknown
  try {
    value = text === '' ? {} : JSON.parse(text)
  } catch {
    throw invalidRequest('The body is not valid JSON.')
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalidRequest('The body must be a JSON object.')
  return value as T
}
