/**
 * The shapes the local server's store holds and persists: items, uploaded
 * files, the changes a write records, and what the store needs from its host.
 */
import type {ItemType, Person} from '../api/types.js'

/** An item as stored (body without the title heading). */
export interface StoredItem {
  id: string
  type: ItemType
  title: string
  body: string
  parent_topic_id: string | null
  created_at: string
  updated_at: string
  version: number
  author: Person
  last_edited_by: Person
  permissions: {inherit: boolean; readers: number[]; editors: number[]}
}

/** An uploaded file. */
export interface StoredFile {
  guid: string
  name: string
  size: number
  md5: string
  /** The item whose body first referenced the guid; the guid is then used up. */
  attachedTo?: string
}

/** Everything the server persists. */
export interface StoreData {
  items: StoredItem[]
  files: StoredFile[]
}

/** An item as it now is; without `body` when that did not change, so renaming a huge article records a few bytes. */
export type ItemRecord = Omit<StoredItem, 'body'> & {body?: string}

/** One change to persist: an item, a deleted item, or a file, as it now is. */
export type Change = {item: ItemRecord} | {deleted: string} | {file: StoredFile}

/** Services the store needs from its host. */
export interface StoreContext {
  newId(): string
  now(): string
  fileUrl(guid: string): string
  users: Person[]
  /** A permissions change leaves `updated_at` and `version` as they were (`ServerOptions.permissionsMoveStamp` false). */
  permissionsKeepStamp?: boolean
  /** How a body sent is stored (default: as sent); see `dialect/platform-form.ts`. */
  storeBody?: (body: string) => string
}
