/**
 * `KbClient`: the typed face of the platform's knowledge-base API. Every
 * method goes through one `Transport` (pool, limits, retries, re-login).
 */
import type {ClientStats} from './events.js'
import {downloadFile} from './download.js'
import type {ExpectedFile} from './download-check.js'
import {uploadFile} from './files.js'
import {optionsFromEnv, resolveOptions, type ClientOptions, type Environment} from './options.js'
import {getStructure, getTree} from './tree.js'
import {Transport} from './transport.js'
import type {
  CreateInput,
  KbItem,
  Permissions,
  PermissionsInput,
  StructureNode,
  StructureResponse,
  UpdateInput,
  UploadResult
} from './types.js'
import * as writes from './writes.js'

/** A client of one knowledge base. */
export class KbClient {
  private readonly transport: Transport

  /** Checks the options (throws a `TypeError` naming a missing or bad one); sends nothing yet. */
  constructor(options: ClientOptions) {
    this.transport = new Transport(resolveOptions(options))
  }

  /** A client configured from `KBSYNC_*` environment variables, with `overrides` on top. */
  static fromEnv(env: Environment, overrides: Partial<ClientOptions> = {}): KbClient {
    const base = optionsFromEnv(env)
    const merged: ClientOptions = {...base}
    for (const [key, value] of Object.entries(overrides))
      if (value !== undefined) (merged as Record<string, unknown>)[key] = value
    return new KbClient(merged)
  }

  /** An article or topic, body included. */
  getItem(id: string): Promise<KbItem> {
    return writes.getItem(this.transport, id)
  }

  /** Creates an item; after a lost answer it looks under the parent before sending again, so it never duplicates. */
  createItem(input: CreateInput): Promise<KbItem> {
    return writes.createItem(this.transport, input)
  }

  /** Updates title and/or body; moves only with `parent_topic_id_changed`. */
  updateItem(id: string, input: UpdateInput): Promise<KbItem> {
    return writes.updateItem(this.transport, id, input)
  }

  /** Moves an item under another topic (`null`: the root). */
  moveItem(id: string, parentTopicId: string | null): Promise<KbItem> {
    return writes.updateItem(this.transport, id, {parent_topic_id: parentTopicId, parent_topic_id_changed: true})
  }

  /** Deletes an item (a topic with children only with `withChildren`); resolves with the answer's `deleted`. */
  deleteItem(id: string, options?: {withChildren?: boolean}): Promise<boolean> {
    return writes.deleteItem(this.transport, id, options)
  }

  /** One answer of the structure endpoint, as the server cut it. */
  getStructure(options?: {parentTopicId?: string | null; depth?: number}): Promise<StructureResponse> {
    return getStructure(this.transport, options)
  }

  /** The direct children of a topic (default: the root), without their own children. */
  getChildren(parentTopicId: string | null = null): Promise<StructureNode[]> {
    return writes.getChildren(this.transport, parentTopicId)
  }

  /** The whole tree under a topic (default: the root), cut subtrees fetched. */
  getTree(parentTopicId: string | null = null): Promise<StructureNode[]> {
    return getTree(this.transport, parentTopicId)
  }

  /** Permissions of an item. */
  getPermissions(id: string): Promise<Permissions> {
    return writes.getPermissions(this.transport, id)
  }

  /** Sets readers, editors and (topics) inheritance. */
  setPermissions(id: string, input: PermissionsInput): Promise<Permissions> {
    return writes.setPermissions(this.transport, id, input)
  }

  /** Uploads a file streamed from disk (or `options.bytes` in its place); checks the returned `md5_hash`. */
  uploadFile(filePath: string, options?: {name?: string; bytes?: Uint8Array}): Promise<UploadResult> {
    return uploadFile(this.transport, filePath, options)
  }

  /**
   * Downloads a file atomically. The token goes only to the API's file routes
   * and the files service; other URLs (and redirects to them) are refused or
   * fetched without it, as `foreignDownloads` says. The answer must be the
   * file `expected` describes (its record's name and size): else it is
   * fetched again, and fails naming the file when it stays wrong.
   */
  downloadFile(url: string, destPath: string, expected?: ExpectedFile): Promise<{bytes: number}> {
    return downloadFile(this.transport, url, destPath, expected)
  }

  /** Counters since the client was created (a copy). */
  stats(): ClientStats {
    const s = this.transport.stats
    const window = this.transport.window
    return {
      requests: s.requests,
      retries: s.retries,
      rateLimitWaits: s.rateLimitWaits,
      byEndpoint: {...s.byEndpoint},
      concurrencyDecreases: window.decreases,
      lowestConcurrency: window.lowest
    }
  }

  /** The API URL in use (after a login, the one the platform returned). */
  get apiUrl(): string {
    return this.transport.session.apiUrl
  }

  /** Closes the connection pool. */
  close(): Promise<void> {
    return this.transport.close()
  }
}
