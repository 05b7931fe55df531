/**
 * The API's routes: each maps a parsed request to a store operation and
 * answers plain data. HTTP details (auth, faults, limits) stay in `http.ts`.
 */
import type {IncomingMessage} from 'node:http'
import type {Readable} from 'node:stream'
import type {CreateInput, PermissionsInput, Person, UpdateInput} from '../api/types.js'
import {readJson} from './body.js'
import {invalidRequest, KbServerError} from './errors.js'
import {nestedFenceLine} from '../../plugins/code-fence.js'
import {checkFields, nullsAsAbsent, routeFields} from './fields.js'
import type {FileStore} from './file-store.js'
import type {BodyLimits, Endpoint} from './options.js'
import type {KbStore} from './store.js'
import {receiveUpload} from './upload.js'

export type {Endpoint} from './options.js'

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
  files: FileStore
  limits: BodyLimits
  /** The platform habit of failing writes of bodies with a nested fence (see `habits.ts`). */
  nestedFenceFails: boolean
}

/** A stored file answered by a download, streamed. */
export interface FileAnswer {
  kind: 'file'
  name: string
  size: number
  open(): Readable
}

const itemPath = /^\/v4\/knowledgebase\/([A-Za-z0-9_-]+)$/
const permissionsPath = /^\/v4\/knowledgebase\/([A-Za-z0-9_-]+)\/permissions$/
/** The official TypeScript client's download path, on the files host (and under `/v4`, like the upload). */
const downloadPath = /^(?:\/v4)?\/files\/download\/([0-9A-Za-z-]+)$/

/** Finds the route of a request, or undefined (404). */
export function matchRoute(method: string, pathname: string): Route | undefined {
  if (pathname === '/v4/knowledgebase/structure' && method === 'GET') {
    return {endpoint: 'structure', write: false, handle: structure}
  }
  if (pathname === '/v4/knowledgebase' && method === 'POST') {
    return {
      endpoint: 'create',
      write: true,
      handle: async (r) =>
        r.store.create(writable(r, checkFields(await itemBody<CreateInput>(r), routeFields.create)), r.editor)
    }
  }
  if (pathname === '/v4/files/upload' && method === 'POST') return {endpoint: 'upload', write: true, handle: upload}
  if (pathname === '/services/kb' && method === 'GET') {
    return {endpoint: 'download', write: false, handle: async (r) => download(r, r.url.searchParams.get('Id') ?? '')}
  }
  const downloaded = downloadPath.exec(pathname)
  if (downloaded && method === 'GET') {
    return {endpoint: 'download', write: false, handle: async (r) => download(r, downloaded[1]!)}
  }
  const permissions = permissionsPath.exec(pathname)
  if (permissions) {
    const id = permissions[1]!
    if (method === 'GET')
      return {endpoint: 'getPermissions', write: false, handle: async (r) => r.store.permissions(id)}
    if (method === 'PUT') {
      return {
        endpoint: 'setPermissions',
        write: true,
        handle: async (r) => r.store.setPermissions(id, nullsAsAbsent(await body<PermissionsInput>(r)), r.editor)
      }
    }
  }
  const item = itemPath.exec(pathname)
  if (item) {
    const id = item[1]!
    if (method === 'GET') return {endpoint: 'get', write: false, handle: async (r) => r.store.view(id, r.prefixTitle)}
    if (method === 'PUT') {
      return {
        endpoint: 'update',
        write: true,
        handle: async (r) =>
          r.store.update(id, writable(r, checkFields(await itemBody<UpdateInput>(r), routeFields.update)), r.editor)
      }
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
  const file = await receiveUpload(r.message, r.files, r.limits.fileBytes)
  r.store.addFile(file)
  return {guid: file.guid, md5_hash: file.md5}
}

async function download(r: RouteRequest, asked: string): Promise<FileAnswer> {
  const guid = asked.toLowerCase()
  const file = r.store.file(guid)
  const bytes = file ? r.files.read(guid) : undefined
  if (!file || !bytes) throw new KbServerError(404, 'not_found', `No file ${guid}.`)
  return {kind: 'file', name: file.name, ...bytes}
}

/** The JSON body of a create or update: fields sent as `null` are absent, but `parent_topic_id` (null is the root). */
async function itemBody<T extends object>(r: RouteRequest): Promise<T> {
  return nullsAsAbsent(await body<T>(r), ['parent_topic_id'])
}

/**
 * `input`, unless the platform would fail on its body (a line of three
 * backticks inside a fenced code block; the dialect's guarded lines pass):
 * a 500 with the platform's code and nothing stored.
 */
function writable<T extends {body?: unknown}>(r: RouteRequest, input: T): T {
  if (r.nestedFenceFails && typeof input.body === 'string' && nestedFenceLine(input.body) !== undefined) {
    throw new KbServerError(500, 'server_error', 'Internal error.')
  }
  return input
}

/** The JSON body of a route's request, within the server's limit. */
function body<T>(r: RouteRequest): Promise<T> {
  return readJson<T>(r.message, r.limits.jsonBytes)
}
