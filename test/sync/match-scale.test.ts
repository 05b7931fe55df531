/**
 * Matching a folder of thousands of files looks each one up in tables, not
 * among all the others: a renamed file's content among every vanished path
 * (`matchMoved`), a file new to the state among its remote topic's children
 * by title (`matchTopDown`). Each was a filter over the others per file, a
 * push quadratic in the size of one folder (2,000 files: 2 million reads).
 * The reads are counted through getters on the records read.
 */
import {describe, expect, it} from 'vitest'
import type {LocalArticle, LocalTopic, ScanResult, StateEntry, SyncState} from '../../src/local/index.js'
import {matchItems} from '../../src/sync/shared/match.js'
import type {RemoteItem, RemoteSnapshot} from '../../src/sync/shared/remote.js'

const size = 2000

/** A record whose `field` counts its reads in `reads`. */
function counted<T extends object>(record: T, field: keyof T, reads: {count: number}): T {
  const value = record[field]
  return Object.defineProperty(record, field, {
    get() {
      reads.count++
      return value
    },
    enumerable: true
  })
}

/** A folder `a` (the remote topic `T`) of `size` articles `a/new-<i>.md` titled `Page <i>`, with source hash `h<i>`. */
function folder(): ScanResult {
  const topic: LocalTopic = {
    kind: 'topic',
    path: 'a',
    parent: '',
    title: 'a',
    children: [],
    refs: {links: [], assets: []}
  }
  const root: LocalTopic = {kind: 'topic', path: '', title: 'root', children: [topic], refs: {links: [], assets: []}}
  const byPath: ScanResult['byPath'] = {'': root, a: topic}
  for (let i = 0; i < size; i++) {
    const article = {kind: 'article', path: `a/new-${i}.md`, parent: 'a', title: `Page ${i}`, sourceHash: `h${i}`}
    topic.children.push(article as LocalArticle)
    byPath[article.path] = article as LocalArticle
  }
  return {root, byPath} as ScanResult
}

/** The remote topic `T` holding `size` articles `v<i>` (their titles made by `title`), and a state knowing `T`. */
function remoteOf(
  title: (i: number) => string,
  titleReads: {count: number}
): {remote: RemoteSnapshot; state: SyncState} {
  const topic: RemoteItem = {id: 'T', type: 'topic', title: 'a', parentId: null, children: []}
  const remote: RemoteSnapshot = {rootTopicId: null, items: {T: topic}, top: ['T'], details: {}, permissions: {}}
  for (let i = 0; i < size; i++) {
    const item: RemoteItem = {id: `v${i}`, type: 'article', title: title(i), parentId: 'T', children: []}
    remote.items[item.id] = counted(item, 'title', titleReads)
    topic.children.push(item.id)
  }
  const state = {items: {a: {id: 'T', type: 'topic', title: 'a', parentId: null}}} as Partial<SyncState>
  return {remote, state: state as SyncState}
}

describe('matching a folder of thousands of files', () => {
  it('finds each renamed file by its content in one look, not among every vanished path', () => {
    const hashReads = {count: 0}
    const {remote, state} = remoteOf((i) => `Old ${i}`, {count: 0})
    for (let i = 0; i < size; i++) {
      const entry: StateEntry = {id: `v${i}`, type: 'article', title: `Old ${i}`, parentId: 'T', sourceHash: `h${i}`}
      state.items[`a/old-${i}.md`] = counted(entry, 'sourceHash', hashReads)
    }
    const matching = matchItems(folder(), remote, state)
    expect(matching.ids.get('a/new-7.md')).toBe('v7')
    expect([...matching.how.values()].filter((how) => how === 'moved')).toHaveLength(size)
    expect(hashReads.count).toBeLessThan(10 * size)
  })

  it('finds each file new to the state by its title among its topic’s children in one look', () => {
    const titleReads = {count: 0}
    const {remote, state} = remoteOf((i) => ` Page ${i} `, titleReads)
    const matching = matchItems(folder(), remote, state)
    expect(matching.ids.get('a/new-7.md')).toBe('v7')
    expect([...matching.how.values()].filter((how) => how === 'title')).toHaveLength(size)
    expect(titleReads.count).toBeLessThan(10 * size)
  })
})
