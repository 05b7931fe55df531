/** `setAsideForeignIds`: which `kb_id`s are another knowledge base's (issue 31), and `managesPermissions`. */
import {describe, expect, it} from 'vitest'
import type {LocalNode, ScanResult, SyncState, TargetState} from '../../src/local/index.js'
import type {RemoteSnapshot} from '../../src/sync/index.js'
import {setAsideForeignIds} from '../../src/sync/shared/foreign-ids.js'
import {managesPermissions} from '../../src/sync/shared/permissions-managed.js'

const node = (path: string, fields: Partial<LocalNode> = {}): LocalNode =>
  ({path, kind: 'article', title: path, file: path, refs: {assets: []}, ...fields}) as LocalNode

const scanOf = (...nodes: LocalNode[]): ScanResult =>
  ({
    dir: '/d',
    byPath: Object.fromEntries([node(''), ...nodes].map((n) => [n.path, n])),
    diagnostics: []
  }) as unknown as ScanResult

const remoteOf = (...ids: string[]): RemoteSnapshot =>
  ({
    rootTopicId: null,
    items: Object.fromEntries(ids.map((id) => [id, {id, type: 'article', title: id, parentId: null, children: []}])),
    top: ids,
    details: {},
    permissions: {}
  }) as unknown as RemoteSnapshot

const other = (items: Record<string, string>): TargetState => ({
  target: {key: 'a#root=', label: 'KB A', origins: []},
  rootTopicId: null,
  items: Object.fromEntries(
    Object.entries(items).map(([p, id]) => [p, {id, type: 'article', title: p, parentId: null}])
  ),
  assets: {}
})

const stateOf = (
  own: Record<string, string>,
  others: Record<string, string> | undefined,
  known: boolean
): SyncState => ({
  schemaVersion: 2,
  known,
  rootTopicId: null,
  items: Object.fromEntries(Object.entries(own).map(([p, id]) => [p, {id, type: 'article', title: p, parentId: null}])),
  assets: {},
  ...(others ? {others: {'a#root=': other(others)}} : {})
})

describe('setAsideForeignIds', () => {
  it('sets aside an id another target recorded that names nothing here, with one info per file', () => {
    const scan = scanOf(node('x.md', {kbId: 'A1'}), node('y.md', {kbId: 'A2'}))
    const infos = setAsideForeignIds(scan, stateOf({}, {'x.md': 'A1', 'y.md': 'A2'}, false), remoteOf())
    expect(infos.map((d) => [d.severity, d.file, d.rule])).toEqual([
      ['info', 'x.md', 'kb-id-other-target'],
      ['info', 'y.md', 'kb-id-other-target']
    ])
    expect(scan.byPath['x.md']!.kbId).toBeUndefined()
    expect(scan.byPath['x.md']!.foreignKbId).toBe('A1')
  })

  it('sets aside an id that coincides with an item of this target the state gives another file', () => {
    // B gave x.md the id A2 by chance: y.md's kb_id A2 (A's) must not claim x.md's item.
    const scan = scanOf(node('x.md', {kbId: 'A1'}), node('y.md', {kbId: 'A2'}))
    const state = stateOf({'x.md': 'A2', 'y.md': 'B9'}, {'x.md': 'A1', 'y.md': 'A2'}, true)
    setAsideForeignIds(scan, state, remoteOf('A2', 'B9'))
    expect(scan.byPath['y.md']!.kbId).toBeUndefined()
    expect(scan.byPath['x.md']!.kbId).toBeUndefined()
  })

  it('keeps the ids this target holds for the file, and unknown ids no state explains (unknown-kb-id stays)', () => {
    const scan = scanOf(node('x.md', {kbId: 'A1'}), node('y.md', {kbId: 'Typo'}))
    expect(setAsideForeignIds(scan, stateOf({'x.md': 'A1'}, {'x.md': 'A1'}, true), remoteOf('A1'))).toEqual([])
    expect(scan.byPath['x.md']!.kbId).toBe('A1')
    expect(scan.byPath['y.md']!.kbId).toBe('Typo')
    const fresh = scanOf(node('z.md', {kbId: 'Gone'}))
    expect(setAsideForeignIds(fresh, stateOf({}, undefined, false), remoteOf())).toEqual([])
    expect(fresh.byPath['z.md']!.kbId).toBe('Gone')
  })

  it('judges an id anew on a scan it ran on (watch reuses nodes)', () => {
    const scan = scanOf(node('x.md', {kbId: 'A1'}))
    setAsideForeignIds(scan, stateOf({}, {'x.md': 'A1'}, false), remoteOf())
    setAsideForeignIds(scan, stateOf({'x.md': 'A1'}, undefined, true), remoteOf('A1'))
    expect(scan.byPath['x.md']!.kbId).toBe('A1')
  })
})

describe('managesPermissions', () => {
  const declared = node('s.md', {permissions: {readers: [1], editors: [1]}})
  it('follows the folder unless the setting says otherwise', () => {
    expect(managesPermissions(scanOf(), 'auto')).toBe(true)
    expect(managesPermissions(scanOf(node('a.md')), 'auto')).toBe(false)
    expect(managesPermissions(scanOf(node('a.md'), declared))).toBe(true)
    expect(managesPermissions(scanOf(node('a.md')), 'manage')).toBe(true)
    expect(managesPermissions(scanOf(declared), 'ignore')).toBe(false)
  })
})
