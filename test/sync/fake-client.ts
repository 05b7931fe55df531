/**
 * An in-memory double of the API client for fast engine tests (the
 * end-to-end suites use the real client against the real local server).
 * It keeps the platform's observable rules that the engine relies on:
 * versions and updated_at bump on every change, guids in a body become file
 * URLs listed under attachments, GET prefixes `# <title>`.
 */
import {stat} from 'node:fs/promises'
import type {
  CreateInput,
  ItemType,
  KbItem,
  Permissions,
  PermissionsInput,
  StructureNode,
  UpdateInput
} from '../../src/api/types.js'
import type {SyncClient} from '../../src/sync/index.js'

export interface Stored {
  id: string
  type: ItemType
  title: string
  body: string
  parent: string | null
  version: number
  updatedAt: string
  attachments: Array<{id: string; name: string; size: number; url: string}>
  permissions: Permissions
}

export class FakeClient implements SyncClient {
  items = new Map<string, Stored>()
  calls: string[] = []
  private counter = 0
  private clock = Date.parse('2026-01-01T00:00:00Z')
  private uploads = new Map<string, string>()
  private sizes = new Map<string, number>()

  get writes(): number {
    return this.calls.filter((c) => !c.startsWith('GET')).length
  }

  private tick(): string {
    this.clock += 1000
    return new Date(this.clock).toISOString().replace(/\.\d+Z$/, 'Z')
  }

  protected toItem(s: Stored): KbItem {
    return {
      id: s.id,
      type: s.type,
      title: s.title,
      body: s.type === 'article' ? `# ${s.title}\n\n${s.body}` : s.body,
      parent_topic_id: s.parent,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: s.updatedAt,
      version: s.version,
      attachments: s.attachments
    }
  }

  private absorb(s: Stored): void {
    s.body = s.body.replace(/\b(guid-[0-9]+)\b/g, (guid) => {
      const name = this.uploads.get(guid)
      if (name === undefined) return guid
      const url = `http://files.test/services/kb?Id=${guid}`
      if (!s.attachments.some((a) => a.id === guid))
        s.attachments.push({id: guid, name, size: this.sizes.get(guid) ?? 0, url})
      this.uploads.delete(guid)
      return url
    })
  }

  async getItem(id: string): Promise<KbItem> {
    this.calls.push(`GET item ${id}`)
    const s = this.items.get(id)
    if (!s) throw Object.assign(new Error('not found'), {status: 404})
    return this.toItem(s)
  }

  async createItem(input: CreateInput & {type: ItemType}): Promise<KbItem> {
    this.calls.push(`POST ${input.title}`)
    const id = `ID${++this.counter}`
    const s: Stored = {
      id,
      type: input.type,
      title: input.title,
      body: input.body ?? '',
      parent: input.parent_topic_id ?? null,
      version: 1,
      updatedAt: this.tick(),
      attachments: [],
      permissions: {inherit: true, readers: [], editors: []}
    }
    this.absorb(s)
    this.items.set(id, s)
    return this.toItem(s)
  }

  async updateItem(id: string, input: UpdateInput): Promise<KbItem> {
    this.calls.push(`PUT ${id} ${Object.keys(input).sort().join(',')}`)
    const s = this.items.get(id)!
    if (input.title !== undefined) s.title = input.title
    if (input.body !== undefined) s.body = input.body
    if (input.parent_topic_id_changed) s.parent = input.parent_topic_id ?? null
    s.version++
    s.updatedAt = this.tick()
    this.absorb(s)
    return this.toItem(s)
  }

  async deleteItem(id: string): Promise<unknown> {
    this.calls.push(`DELETE ${id}`)
    if ([...this.items.values()].some((s) => s.parent === id)) throw new Error('topic has children')
    this.items.delete(id)
    return {deleted: true}
  }

  async getTree(parentTopicId: string | null): Promise<StructureNode[]> {
    this.calls.push('GET structure')
    const build = (parent: string | null): StructureNode[] =>
      [...this.items.values()]
        .filter((s) => s.parent === parent)
        .map((s) => ({
          id: s.id,
          type: s.type,
          title: s.title,
          parent_topic_id: s.parent,
          updated_at: s.updatedAt,
          children: build(s.id)
        }))
    return build(parentTopicId)
  }

  async getPermissions(id: string): Promise<Permissions> {
    this.calls.push(`GET permissions ${id}`)
    return this.items.get(id)!.permissions
  }

  async setPermissions(id: string, input: PermissionsInput): Promise<Permissions> {
    this.calls.push(`PUT permissions ${id}`)
    const s = this.items.get(id)!
    s.permissions = {
      inherit: input.inherit ?? s.permissions.inherit,
      readers: input.readers.map((i) => ({id: i})),
      editors: input.editors.map((i) => ({id: i}))
    }
    s.updatedAt = this.tick()
    return s.permissions
  }

  async uploadFile(path: string, options?: {name?: string}): Promise<{guid: string; md5_hash: string}> {
    this.calls.push(`UPLOAD ${options?.name ?? path}`)
    const guid = `guid-${++this.counter}`
    this.uploads.set(guid, options?.name ?? path)
    this.sizes.set(guid, (await stat(path)).size)
    return {guid, md5_hash: 'x'}
  }

  /** A person edits an item in the web application. */
  webEdit(id: string, change: {title?: string; body?: string}): void {
    const s = this.items.get(id)!
    if (change.title !== undefined) s.title = change.title
    if (change.body !== undefined) s.body = change.body
    s.version++
    s.updatedAt = this.tick()
  }
}
