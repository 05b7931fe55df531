/**
 * The one comparison (`src/sync/shared/compare.ts`): its classification as
 * a table, its definitions of "changed", and the law that push and pull,
 * asked about the same document (local file, state entry, remote item),
 * decide the same way.
 */
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {scanFolder, type ScanResult, type StateEntry, type SyncState} from '../../src/local/index.js'
import {computePlan} from '../../src/sync/push/plan.js'
import {planPull} from '../../src/sync/pull/plan.js'
import {
  bodyEditedRemotely,
  classify,
  editedLocally,
  titleEditedRemotely,
  type SideState,
  type Triple,
  type Verdict
} from '../../src/sync/shared/compare.js'
import {bodyHash, type RemoteSnapshot} from '../../src/sync/shared/remote.js'
import {renderBody} from '../../src/sync/shared/render.js'
import {planRenderContext} from '../../src/sync/shared/render-context.js'

describe('classify', () => {
  const table: Array<[boolean, SideState, SideState, Verdict]> = [
    [true, 'same', 'same', 'unchanged'],
    [true, 'changed', 'same', 'local-edit'],
    [true, 'same', 'changed', 'remote-edit'],
    [true, 'changed', 'changed', 'conflict'],
    [true, 'absent', 'same', 'gone-locally'],
    [true, 'absent', 'changed', 'conflict'],
    [true, 'same', 'absent', 'gone-remotely'],
    [true, 'changed', 'absent', 'conflict'],
    [true, 'absent', 'absent', 'unchanged'],
    [false, 'same', 'same', 'adopt'],
    [false, 'changed', 'changed', 'adopt'],
    [false, 'same', 'absent', 'new'],
    [false, 'absent', 'same', 'new'],
    [false, 'absent', 'absent', 'unchanged']
  ]
  it.each(table)('base %s, local %s, remote %s: %s', (base, local, remote, verdict) => {
    expect(classify({base, local, remote})).toBe(verdict)
  })

  it('is symmetric: swapping the sides swaps local and remote edits, and a conflict stays one', () => {
    const side = fc.constantFrom<SideState>('absent', 'same', 'changed')
    const mirror: Record<Verdict, Verdict> = {
      'local-edit': 'remote-edit',
      'remote-edit': 'local-edit',
      'gone-locally': 'gone-remotely',
      'gone-remotely': 'gone-locally',
      unchanged: 'unchanged',
      conflict: 'conflict',
      adopt: 'adopt',
      new: 'new'
    }
    fc.assert(
      fc.property(
        fc.boolean(),
        side,
        side,
        (base, local, remote) =>
          classify({base, local: remote, remote: local}) === mirror[classify({base, local, remote})]
      )
    )
  })
})

describe('one definition of changed', () => {
  const base = {sourceHash: 's1', title: 'Install', remoteHash: 'h1'}
  it('locally: the source text, not a title from elsewhere (navigation, file name)', () => {
    expect(editedLocally({sourceHash: 's1'}, base)).toBe(false)
    expect(editedLocally({sourceHash: 's2'}, base)).toBe(true)
    expect(editedLocally({sourceHash: undefined}, base)).toBe(true)
  })
  it('remotely: the stored body, unless it is what the local side says; a title changed to the local one is no edit', () => {
    expect(bodyEditedRemotely({bodyHash: 'h1'}, base, () => false)).toBe(false)
    expect(bodyEditedRemotely({bodyHash: 'h2'}, base, () => false)).toBe(true)
    expect(bodyEditedRemotely({bodyHash: 'h2'}, base, () => true)).toBe(false)
    expect(bodyEditedRemotely({}, base, () => false)).toBe(false)
    expect(titleEditedRemotely({title: 'Setup'}, base, {title: 'Install'})).toBe(true)
    expect(titleEditedRemotely({title: 'Setup'}, base, {title: 'Setup'})).toBe(false)
  })
})

describe('push and pull agree', () => {
  let dir: string
  const scans: Record<'kept' | 'edited', ScanResult> = {} as never

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kbsync-compare-'))
    for (const [variant, text] of [
      ['kept', 'The first text.'],
      ['edited', 'The text, edited locally.']
    ] as const) {
      const folder = path.join(dir, variant)
      await mkdir(folder, {recursive: true})
      await writeFile(path.join(folder, 'guide.md'), `# Guide\n\n${text}\n`)
      scans[variant] = await scanFolder(folder)
    }
  })
  afterAll(() => rm(dir, {recursive: true, force: true}))

  /** The triple: the local file (kept or edited), the state of the last sync, the remote (as synced, edited on the web, or edited to what the file says). */
  function triple(
    localEdited: boolean,
    remote: 'synced' | 'web' | 'same-as-local'
  ): {scan: ScanResult; state: SyncState; snapshot: RemoteSnapshot} {
    const scan = localEdited ? scans.edited : scans.kept
    const synced = scans.kept.byPath['guide.md']!
    const ids = new Map([['guide.md', 'A1']])
    const empty: SyncState = {schemaVersion: 1, rootTopicId: null, items: {}, assets: {}}
    const emptyRemote: RemoteSnapshot = {rootTopicId: null, items: {}, top: [], details: {}, permissions: {}}
    const syncedBody = renderBody(synced, planRenderContext(scans.kept, emptyRemote, ids, empty)).body
    const localBody = renderBody(scan.byPath['guide.md']!, planRenderContext(scan, emptyRemote, ids, empty)).body
    const body = remote === 'synced' ? syncedBody : remote === 'web' ? 'Edited on the web.' : localBody
    const entry: StateEntry = {
      id: 'A1',
      type: 'article',
      title: 'Guide',
      parentId: null,
      sourceHash: synced.sourceHash!,
      renderedHash: bodyHash(syncedBody),
      remoteHash: bodyHash(syncedBody),
      remoteVersion: 1,
      remoteUpdatedAt: 't1'
    }
    const moved = remote === 'synced' ? 't1' : 't2'
    const snapshot: RemoteSnapshot = {
      rootTopicId: null,
      items: {A1: {id: 'A1', type: 'article', title: 'Guide', parentId: null, updatedAt: moved, children: []}},
      top: ['A1'],
      details: {
        A1: {
          version: remote === 'synced' ? 1 : 2,
          updatedAt: moved,
          title: 'Guide',
          body,
          bodyHash: bodyHash(body),
          attachments: {},
          files: []
        }
      },
      permissions: {}
    }
    return {scan, state: {schemaVersion: 1, rootTopicId: null, items: {'guide.md': entry}, assets: {}}, snapshot}
  }

  /** What push's plan says of the document, as a verdict. */
  function pushVerdict(localEdited: boolean, remote: 'synced' | 'web' | 'same-as-local'): Verdict {
    const {scan, state, snapshot} = triple(localEdited, remote)
    const matching = {
      ids: new Map([['guide.md', 'A1']]),
      how: new Map(),
      remoteGone: new Set<string>(),
      diagnostics: []
    }
    const ops = computePlan(scan, snapshot, state, matching, {}).ops.filter((op) => op.path === 'guide.md')
    const kinds = ops.map((op) => op.op)
    if (kinds.includes('conflict')) return 'conflict'
    if (kinds.includes('drift')) return 'remote-edit'
    return kinds.includes('update') ? 'local-edit' : 'unchanged'
  }

  /** What pull's plan says of the same document, as a verdict. */
  function pullVerdict(localEdited: boolean, remote: 'synced' | 'web' | 'same-as-local'): Verdict {
    const {scan, state, snapshot} = triple(localEdited, remote)
    const kinds = planPull(snapshot, state, scan)
      .ops.filter((op) => op.id === 'A1')
      .map((op) => op.op)
    if (kinds.includes('conflict')) return 'conflict'
    if (kinds.includes('update')) return 'remote-edit'
    // Pull leaves a local edit in place: push is the side that takes it.
    return localEdited && remote !== 'same-as-local' ? 'local-edit' : 'unchanged'
  }

  it('classifies the same triple the same way (every local and remote change)', () => {
    const remote = fc.constantFrom<'synced' | 'web' | 'same-as-local'>('synced', 'web', 'same-as-local')
    fc.assert(
      fc.property(fc.boolean(), remote, (localEdited, side) => {
        const verdict = pushVerdict(localEdited, side)
        expect(pullVerdict(localEdited, side)).toBe(verdict)
        const expected: Triple = {
          base: true,
          local: localEdited ? 'changed' : 'same',
          remote: side === 'web' ? 'changed' : 'same'
        }
        if (side !== 'same-as-local') expect(verdict).toBe(classify(expected))
      }),
      {numRuns: 30}
    )
  })
})
