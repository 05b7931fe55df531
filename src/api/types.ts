/**
 * Wire types of the platform's knowledge-base API
 * (`../shared/spec/knowledge-base-api.md`). Shared, type-only, by the client,
 * the local server and the sync engine.
 */

/** `article` or `topic`. */
export type ItemType = 'article' | 'topic'

/** A person as the API returns it. */
export interface Person {
  id: number
  first_name?: string
  last_name?: string
  email?: string
  type?: string
}

/** An attachment of an article, as GET and PUT return it. */
export interface KbAttachment {
  /** The file's guid. */
  id: string
  name: string
  size: number
  url: string
}

/** A knowledge-base element (article or topic). */
export interface KbItem {
  id: string
  title: string
  type: ItemType
  body?: string
  author?: Person
  last_edited_by?: Person
  parent_topic_id: string | null
  created_at: string
  updated_at: string
  version: number
  access_right?: string
  is_open_for_organization?: boolean
  is_public?: boolean
  attachments?: KbAttachment[]
}

/** A node of `GET /knowledgebase/structure`. */
export interface StructureNode {
  id: string
  type: ItemType
  title: string
  parent_topic_id: string | null
  access_right?: string
  is_open_for_organization?: boolean
  created_at?: string
  updated_at?: string
  /** Absent or empty on articles; absent on a topic cut at the depth limit. */
  children?: StructureNode[]
}

/** Answer of `GET /knowledgebase/structure`. */
export interface StructureResponse {
  parent_topic_id: string | null
  depth: number
  items: StructureNode[]
}

/** Permissions object. */
export interface Permissions {
  global_permission?: string
  inherit: boolean
  readers: Person[]
  editors: Person[]
}

/** Body of `PUT /knowledgebase/{id}/permissions`. */
export interface PermissionsInput {
  inherit?: boolean
  readers: number[]
  editors: number[]
}

/** Body of `POST /knowledgebase`. */
export interface CreateInput {
  type?: ItemType
  title: string
  parent_topic_id?: string | null
  body?: string
}

/** Body of `PUT /knowledgebase/{id}`. */
export interface UpdateInput {
  title?: string
  body?: string
  parent_topic_id?: string | null
  parent_topic_id_changed?: boolean
}

/** Answer of a file upload. */
export interface UploadResult {
  guid: string
  md5_hash: string
}

/** Answer of `POST /auth`. */
export interface AuthResult {
  access_token: string
  api_url: string
  files_url: string
}

/** Error body of every failed request. */
export interface ApiErrorBody {
  error_code: string
  error: string
}
