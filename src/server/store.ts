/**
 * The knowledge base of the local server: items and uploaded files, with the
 * platform's rules (validation, versions, moves, guid attachment). Plain
 * data; persistence and HTTP live elsewhere.
 */
import {ChildIndex} from './child-index.js'
import {changeStamp} from './clock.js'
import {toShownUrls, toStoredUrls} from './file-urls.js'
import type {
  CreateInput,
  KbItem,
  Permissions,
  PermissionsInput,
  Person,
  StructureNode,
  UpdateInput
} from '../api/types.js'
import {invalidRequest, KbServerError, notFound} from './errors.js'
import {attachmentsOf, replaceGuids} from './store-files.js'
import {itemAnswer, structureNode} from './store-answers.js'
import type {Change, StoreContext, StoreData, StoredFile, StoredItem} from './store-types.js'
import {isGiven, requireBody, requireTitle, userIdsOf} from './store-validation.js'

export type {Change, ItemRecord, StoreContext, StoreData, StoredFile, StoredItem} from './store-types.js'

/** The in-memory knowledge base. */
export class KbStore {
  private readonly items = new Map<string, StoredItem>()
  private readonly files = new Map<string, StoredFile>()
  private readonly tree = new ChildIndex()
  /** What changed since the last `takeChanges`, so a write persists only that. */
  private readonly changed = {items: new Map<string, {bodyChanged: boolean}>(), files: new Set<string>()}

  constructor(
    private readonly context: StoreContext,
    data?: StoreData
  ) {
    for (const file of data?.files ?? []) this.files.set(file.guid, file)
    // Data written before file URLs were stored port-free still holds the port of an earlier start.
    for (const item of data?.items ?? []) {
      this.items.set(item.id, {...item, body: this.storedBody(item.body)})
      this.tree.add(item.id, item.parent_topic_id)
    }
  }

  /** Everything, for a snapshot: live objects, to be serialised before the store changes again (no copy of the store). */
  data(): {items: Iterable<StoredItem>; files: Iterable<StoredFile>} {
    return {items: this.items.values(), files: this.files.values()}
  }

  /** The changes since the last call, oldest item first, files before the items that use them; live objects: serialise them at once. */
  takeChanges(): Change[] {
    const changes: Change[] = []
    for (const guid of this.changed.files) changes.push({file: this.files.get(guid)!})
    for (const [id, {bodyChanged}] of this.changed.items) {
      const item = this.items.get(id)
      if (!item) changes.push({deleted: id})
      else if (bodyChanged) changes.push({item})
      else changes.push({item: {...item, body: undefined}})
    }
    this.changed.items.clear()
    this.changed.files.clear()
    return changes
  }

  /** The stored item, or a 404. */
  stored(id: string): StoredItem {
    const item = this.items.get(id)
    if (!item) throw notFound(id)
    return item
  }

  /** The item as GET answers it; `prefixTitle` prepends `# <title>` to an article body like the platform (which escapes `_` in it). */
  view(id: string, prefixTitle = false): KbItem {
    const item = this.stored(id)
    const shown = toShownUrls(item.body, this.context.fileUrl(''))
    const body = prefixTitle && item.type === 'article' ? `# ${item.title.replaceAll('_', '\\_')}\n\n${shown}` : shown
    return itemAnswer(
      item,
      body,
      attachmentsOf(item.body, this.files, (guid) => this.context.fileUrl(guid))
    )
  }

  /** `POST /knowledgebase`. */
  create(input: CreateInput, editor: Person): KbItem {
    const type = input.type ?? 'article'
    if (type !== 'article' && type !== 'topic') throw invalidRequest(`type must be 'article' or 'topic'.`)
    const title = requireTitle(input.title)
    const parent = input.parent_topic_id ?? null
    this.requireTopic(parent)
    // Ids are random (seeded): one already taken would overwrite its item.
    let id = this.context.newId()
    while (this.items.has(id)) id = this.context.newId()
    // A topic may be created without a body; one sent must not be empty, as for an article.
    const body = type === 'article' || isGiven(input.body) ? requireBody(input.body, type) : ''
    const now = this.context.now()
    const item: StoredItem = {
      id,
      type,
      title,
      body: this.attachGuids(id, body),
      parent_topic_id: parent,
      created_at: now,
      updated_at: now,
      version: 1,
      author: editor,
      last_edited_by: editor,
      permissions: {inherit: true, readers: [], editors: []}
    }
    this.put(item)
    return this.view(id)
  }

  /** `PUT /knowledgebase/{id}`: a move happens only with `parent_topic_id_changed`. */
  update(id: string, input: UpdateInput, editor: Person): KbItem {
    const item = this.stored(id)
    const next = {...item}
    if (isGiven(input.title)) next.title = requireTitle(input.title)
    if (input.parent_topic_id_changed === true) {
      const parent = input.parent_topic_id ?? null
      this.requireTopic(parent)
      if (parent !== null && (parent === id || this.isDescendant(parent, id))) {
        throw new KbServerError(
          400,
          'knowledge_base_invalid_parent',
          'A topic cannot move into itself or its own subtree.'
        )
      }
      next.parent_topic_id = parent
    }
    // Last: attaching uses up guids, so nothing may be refused after it.
    // The platform refuses to empty a body, a topic's too (400): it keeps the one it has.
    if (isGiven(input.body)) next.body = this.attachGuids(id, requireBody(input.body, item.type))
    const changed =
      next.title !== item.title || next.body !== item.body || next.parent_topic_id !== item.parent_topic_id
    if (changed) this.touch(next, editor)
    this.put(next)
    return this.view(id)
  }

  /** A person edits the item in the web application. */
  webEdit(id: string, change: {title?: string; body?: string}, editor: Person): KbItem {
    const item = {...this.stored(id)}
    if (change.title !== undefined) item.title = change.title
    if (change.body !== undefined) item.body = this.storedBody(change.body)
    this.touch(item, editor)
    this.put(item)
    return this.view(id)
  }

  /** `DELETE /knowledgebase/{id}`. */
  remove(id: string, withChildren: boolean): boolean {
    const item = this.stored(id)
    if (item.type === 'topic' && this.tree.children(id).length > 0 && !withChildren) {
      throw invalidRequest('The topic has children: pass delete_with_children=true to delete them too.')
    }
    const doomed = [id, ...this.tree.descendants(id)]
    for (const gone of doomed) {
      this.tree.remove(gone, this.items.get(gone)!.parent_topic_id)
      this.items.delete(gone)
      this.changed.items.set(gone, {bodyChanged: true})
    }
    return true
  }

  /** `GET /knowledgebase/structure`: nodes at the last level are cut (topics there carry no `children`). */
  structure(parentId: string | null, depth: number): StructureNode[] {
    if (parentId !== null) {
      const parent = this.stored(parentId)
      if (parent.type !== 'topic')
        throw new KbServerError(400, 'knowledge_base_invalid_parent', `'${parentId}' is not a topic.`)
    }
    // Level by level from a list of pending topics: no nesting of topics overflows the stack.
    const roots: StructureNode[] = []
    const pending: Array<{id: string | null; level: number; into: StructureNode[]}> = [
      {id: parentId, level: 1, into: roots}
    ]
    while (pending.length > 0) {
      const {id, level, into} = pending.pop()!
      for (const childId of this.tree.children(id)) {
        const item = this.items.get(childId)!
        const node = structureNode(item)
        into.push(node)
        if (item.type === 'topic' && level < depth)
          pending.push({id: item.id, level: level + 1, into: (node.children = [])})
      }
    }
    return roots
  }

  /** `GET /knowledgebase/{id}/permissions`. */
  permissions(id: string): Permissions {
    const {permissions} = this.stored(id)
    return {
      global_permission: 'read',
      inherit: permissions.inherit,
      readers: permissions.readers.map((u) => this.person(u)),
      editors: permissions.editors.map((u) => this.person(u))
    }
  }

  /** `PUT /knowledgebase/{id}/permissions`. */
  setPermissions(id: string, input: PermissionsInput, editor: Person): Permissions {
    const item = {...this.stored(id)}
    if (input.inherit !== undefined && typeof input.inherit !== 'boolean')
      throw invalidRequest('inherit must be a boolean.')
    if (input.inherit !== undefined && item.type === 'article') {
      throw invalidRequest('inherit is supported for topics only.')
    }
    const readers = userIdsOf(input.readers, 'readers', this.context.users)
    const editors = userIdsOf(input.editors, 'editors', this.context.users)
    const inherit =
      item.type === 'topic' ? (input.inherit ?? item.permissions.inherit) : readers.length + editors.length === 0
    item.permissions = {inherit, readers, editors}
    if (!this.context.permissionsKeepStamp) this.touch(item, editor)
    this.put(item)
    return this.permissions(id)
  }

  /** Records an uploaded file. */
  addFile(file: StoredFile): void {
    this.files.set(file.guid, file)
    this.changed.files.add(file.guid)
  }

  /** An uploaded file, if known. */
  file(guid: string): StoredFile | undefined {
    return this.files.get(guid)
  }

  /** Every stored item as the API shows it (bodies without title prefix). */
  all(): KbItem[] {
    return [...this.items.keys()].map((id) => this.view(id))
  }

  private put(item: StoredItem): void {
    const before = this.items.get(item.id)
    if (!before) this.tree.add(item.id, item.parent_topic_id)
    else this.tree.move(item.id, before.parent_topic_id, item.parent_topic_id)
    const bodyChanged = !before || before.body !== item.body || this.changed.items.get(item.id)?.bodyChanged === true
    this.items.set(item.id, item)
    this.changed.items.set(item.id, {bodyChanged})
  }

  private touch(item: StoredItem, editor: Person): void {
    item.version += 1
    item.updated_at = changeStamp(item.updated_at, this.context.now())
    item.last_edited_by = editor
  }

  private person(id: number): Person {
    return this.context.users.find((u) => u.id === id) ?? {id}
  }

  private requireTopic(id: string | null): void {
    if (id === null) return
    const parent = this.items.get(id)
    if (!parent || parent.type !== 'topic') {
      throw new KbServerError(
        400,
        'knowledge_base_invalid_parent',
        `Parent topic '${id}' does not exist or is not a topic.`
      )
    }
  }

  private isDescendant(candidate: string, ancestor: string): boolean {
    let current = this.items.get(candidate)
    while (current?.parent_topic_id) {
      if (current.parent_topic_id === ancestor) return true
      current = this.items.get(current.parent_topic_id)
    }
    return false
  }

  /**
   * Guids are single-use: one that a body references for the first time is
   * attached to the item and replaced by its file URL (see `store-files.ts`).
   */
  private attachGuids(itemId: string, body: string): string {
    const {body: result, attached} = replaceGuids(itemId, body, this.files, (guid) => this.context.fileUrl(guid))
    // Only a body accepted as a whole uses up its guids.
    for (const file of attached) {
      file.attachedTo = itemId
      this.changed.files.add(file.guid)
    }
    return this.storedBody(result)
  }

  /** A body with the server's own file URLs made port-free (see `file-urls.ts`). */
  private storedBody(body: string): string {
    const stored = toStoredUrls(body, this.context.fileUrl(''), (guid) => this.files.has(guid.toLowerCase()))
    return this.context.storeBody ? this.context.storeBody(stored) : stored
  }
}
