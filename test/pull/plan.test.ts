import {describe, expect, it} from 'vitest'
import type {LocalNode, ScanResult, StateEntry, SyncState} from '../../src/local/index.js'
import {itemsToRead, planPull} from '../../src/sync/pull/index.js'
import type {RemoteDetail, RemoteSnapshot} from '../../src/sync/shared/remote.js'

interface Spec {
  id: string
  type: 'article' | 'topic'
  title: string
  parent?: string
  updatedAt?: string
  body?: string
}

function remoteOf(specs: Spec[], detailed = true): RemoteSnapshot {
  const snapshot: RemoteSnapshot = {rootTopicId: null, items: {}, top: [], details: {}, permissions: {}}
  for (const spec of specs) {
    snapshot.items[spec.id] = {
      id: spec.id,
      type: spec.type,
      title: spec.title,
      parentId: spec.parent ?? null,
      updatedAt: spec.updatedAt ?? 't1',
      children: []
    }
  }
  for (const spec of specs) {
    if (spec.parent) snapshot.items[spec.parent]!.children.push(spec.id)
    else snapshot.top.push(spec.id)
    if (detailed) snapshot.details[spec.id] = detail(spec.body ?? `body of ${spec.id}`)
  }
  return snapshot
}

function detail(body: string): RemoteDetail {
  return {version: 1, updatedAt: 't1', title: '', body, bodyHash: `hash:${body}`, attachments: {}, files: []}
}

function scanOf(files: Record<string, {kind?: 'article' | 'topic'; kbId?: string; hash?: string}>): ScanResult {
  const byPath: Record<string, LocalNode> = {
    '': {kind: 'topic', path: '', title: '', children: [], refs: {links: [], assets: []}}
  }
  for (const [path, spec] of Object.entries(files)) {
    byPath[path] = {
      kind: spec.kind ?? 'article',
      path,
      title: path,
      refs: {links: [], assets: []},
      ...(spec.kbId ? {kbId: spec.kbId} : {}),
      sourceHash: spec.hash ?? `src:${path}`,
      ...(spec.kind === 'topic' ? {children: []} : {source: '', hasFrontMatter: true})
    } as LocalNode
  }
  return {dir: '/tmp/x', root: byPath['']! as never, diagnostics: [], assets: {}, byPath, articleCount: 0}
}

function stateOf(entries: Record<string, Partial<StateEntry> & {id: string}>): SyncState {
  const items: Record<string, StateEntry> = {}
  for (const [path, entry] of Object.entries(entries)) {
    items[path] = {
      type: 'article',
      title: '',
      parentId: null,
      sourceHash: `src:${path}`,
      remoteUpdatedAt: 't1',
      remoteHash: `hash:body of ${entry.id}`,
      ...entry
    }
  }
  return {schemaVersion: 1, rootTopicId: null, items, assets: {}}
}

const tree: Spec[] = [
  {id: 'T1', type: 'topic', title: 'Guides'},
  {id: 'A1', type: 'article', title: 'Install', parent: 'T1'},
  {id: 'A2', type: 'article', title: 'install', parent: 'T1'},
  {id: 'A3', type: 'article', title: 'CON'},
  {id: 'A4', type: 'article', title: 'Q: why?'}
]

describe('planPull', () => {
  it('creates every item of a first pull, with portable, distinct names', () => {
    const plan = planPull(remoteOf(tree), stateOf({}), scanOf({}))
    expect(plan.ops.map((op) => [op.op, op.path, op.file])).toEqual([
      ['create', 'Guides', 'Guides/_index.md'],
      ['create', 'Guides/Install.md', 'Guides/Install.md'],
      ['create', 'Guides/install (2).md', 'Guides/install (2).md'],
      ['create', 'CON_.md', 'CON_.md'],
      ['create', 'Q - why.md', 'Q - why.md']
    ])
    expect(plan.summary.create).toBe(5)
  })

  const synced = stateOf({
    Guides: {id: 'T1', type: 'topic', title: 'Guides', sourceHash: 'src:Guides'},
    'Guides/Install.md': {id: 'A1', title: 'Install', parentId: 'T1'},
    'Guides/install (2).md': {id: 'A2', title: 'install', parentId: 'T1'},
    'CON_.md': {id: 'A3', title: 'CON'},
    'Q - why.md': {id: 'A4', title: 'Q: why?'}
  })
  const files = scanOf({
    Guides: {kind: 'topic'},
    'Guides/Install.md': {},
    'Guides/install (2).md': {},
    'CON_.md': {},
    'Q - why.md': {}
  })

  it('plans nothing when neither side changed, and reads no record', () => {
    const remote = remoteOf(tree, false)
    expect(itemsToRead(remote, synced, files)).toEqual([])
    expect(planPull(remote, synced, files).ops).toEqual([])
  })

  it('after a move, rewrites the documents whose links change, and leaves the others as their writers wrote them', () => {
    // A3 moves into Guides; A4 links to it, A1 and A2 do not (and stay where they are).
    const movedTree = tree.map((s) =>
      s.id === 'A3'
        ? {...s, parent: 'T1', updatedAt: 't2'}
        : s.id === 'A4'
          ? {...s, body: 'see <a data-node="articleLink" data-article-id="A3">con</a>'}
          : s
    )
    const remote = remoteOf(movedTree)
    const state = stateOf({
      ...synced.items,
      'Q - why.md': {
        id: 'A4',
        title: 'Q: why?',
        remoteHash: 'hash:see <a data-node="articleLink" data-article-id="A3">con</a>'
      }
    } as never)
    const plan = planPull(remote, state, files, {refreshAll: true})
    expect(plan.ops.map((op) => [op.op, op.id, op.refresh ?? false])).toEqual([
      ['move', 'A3', false],
      ['update', 'A4', true]
    ])
  })

  it('updates exactly the item changed on the platform, keeping its path after a retitle', () => {
    const changed = tree.map((s) => (s.id === 'A1' ? {...s, title: 'Installation', updatedAt: 't2', body: 'new'} : s))
    const remote = remoteOf(changed, false)
    expect(itemsToRead(remote, synced, files)).toEqual(['A1'])
    remote.details.A1 = detail('new')
    const plan = planPull(remote, synced, files)
    expect(plan.ops.map((op) => [op.op, op.path, op.reason])).toEqual([
      ['update', 'Guides/Install.md', 'changed on the platform: body, title']
    ])
  })

  it('is a conflict when the file changed locally too', () => {
    const remote = remoteOf(tree, false)
    remote.details.A1 = detail('web edit')
    const plan = planPull(
      remote,
      synced,
      scanOf({
        Guides: {kind: 'topic'},
        'Guides/Install.md': {hash: 'edited'},
        'Guides/install (2).md': {},
        'CON_.md': {},
        'Q - why.md': {}
      })
    )
    expect(plan.ops.map((op) => [op.op, op.path])).toEqual([['conflict', 'Guides/Install.md']])
  })

  it('deletes a file whose item is gone, unless it was edited locally', () => {
    const remote = remoteOf(
      tree.filter((s) => s.id !== 'A3' && s.id !== 'A4'),
      false
    )
    const plan = planPull(
      remote,
      synced,
      scanOf({
        Guides: {kind: 'topic'},
        'Guides/Install.md': {},
        'Guides/install (2).md': {},
        'CON_.md': {},
        'Q - why.md': {hash: 'edited'}
      })
    )
    expect(plan.ops.map((op) => [op.op, op.path])).toEqual([
      ['delete', 'CON_.md'],
      ['conflict', 'Q - why.md']
    ])
  })

  it('moves a file whose item moved to another topic, keeping its name', () => {
    const moved = tree.map((s) => (s.id === 'A3' ? {...s, parent: 'T1'} : s))
    const remote = remoteOf(moved)
    const plan = planPull(remote, synced, files)
    expect(plan.ops.map((op) => [op.op, op.from, op.path])).toEqual([['move', 'CON_.md', 'Guides/CON_.md']])
  })

  it('pins files by kb_id without a state, and never overwrites them unverified', () => {
    const plan = planPull(remoteOf(tree.slice(3)), stateOf({}), scanOf({'my name.md': {kbId: 'A3'}}))
    expect(plan.ops.map((op) => [op.op, op.path, op.unverified ?? false])).toEqual([
      ['update', 'my name.md', true],
      ['create', 'Q - why.md', false]
    ])
  })

  it('never names a new item like a local file that is no remote item', () => {
    const plan = planPull(
      remoteOf([{id: 'A9', type: 'article', title: 'Draft'}]),
      stateOf({}),
      scanOf({'draft.md': {}})
    )
    expect(plan.ops.map((op) => op.path)).toEqual(['Draft (2).md'])
  })
})
