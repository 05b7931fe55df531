/**
 * A stored item as the API answers it: the full record of
 * `GET /knowledgebase/{id}` and a node of `GET /knowledgebase/structure`.
 */
import type {KbAttachment, KbItem, StructureNode} from '../api/types.js'
import type {StoredItem} from './store-types.js'

/** The record GET answers, with the body as shown (file URLs of this server, the title heading if prefixed). */
export function itemAnswer(item: StoredItem, body: string, attachments: KbAttachment[]): KbItem {
  return {
    id: item.id,
    title: item.title,
    type: item.type,
    body,
    author: item.author,
    last_edited_by: item.last_edited_by,
    parent_topic_id: item.parent_topic_id,
    created_at: item.created_at,
    updated_at: item.updated_at,
    version: item.version,
    access_right: 'write',
    is_open_for_organization: true,
    is_public: false,
    attachments
  }
}

/** The item as a node of the structure (without children). */
export function structureNode(item: StoredItem): StructureNode {
  return {
    id: item.id,
    type: item.type,
    title: item.title,
    parent_topic_id: item.parent_topic_id,
    access_right: 'write',
    is_open_for_organization: true,
    created_at: item.created_at,
    updated_at: item.updated_at
  }
}
