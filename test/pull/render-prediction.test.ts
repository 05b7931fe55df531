/**
 * The check after a pull takes the render its proof predicted (issue 32):
 * a pulled body whose references resolve as the proof restored them is
 * neither parsed nor rendered again, past the bound of handed-over trees
 * too, and what it records is what push's render gives (a differential
 * test against `renderBody` over links to articles, topics and the root,
 * images, attachments, links out of the pulled root, and the platform
 * fixtures).
 */
import {readdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import fc from 'fast-check'
import {beforeAll, describe, expect, it} from 'vitest'
import {serverSuite} from './server-suite.js'
import type {KbClient} from '../../src/api/index.js'
import {pull} from '../../src/sync/pull/index.js'
import {assetHashesByPath, scanFolder, scanParses} from '../../src/local/index.js'
import {reserveHandedTree} from '../../src/local/body-facts.js'
import {bodyTreeParses} from '../../src/local/markdown.js'
import {renderBody, type RenderContext} from '../../src/sync/shared/render.js'
import {predictedRender, predictRender} from '../../src/sync/shared/render-prediction.js'
import type {Origin} from '../../src/sync/shared/localize.js'
import type {Resolved} from '../../src/local/index.js'
import {noticeOf, type NoticeSettings} from '../../src/sync/shared/notice.js'

const suite = serverSuite('render-prediction')
let client: KbClient
beforeAll(() => {
  client = suite.client()
})
const fixtures = path.resolve(import.meta.dirname, '../../fixtures/platform-bodies')
const png = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201d0a3cb5f0000000049454e44ae426082',
  'hex'
)

async function upload(name: string, bytes: string | Buffer): Promise<string> {
  const file = path.join(await suite.folder(), name)
  await writeFile(file, bytes)
  return (await client.uploadFile(file, {name})).guid
}

const create = async (type: 'topic' | 'article', title: string, parent: string | null, body = '') =>
  (await client.createItem({type, title, parent_topic_id: parent, ...(body ? {body} : {})})).id

/** A knowledge base whose bodies use every kind of reference a pull localizes, and some it does not. */
async function referencesTopic(): Promise<string> {
  const outside = await create('article', 'Elsewhere', null, 'Not pulled.')
  const root = await create('topic', 'Predicted', null, 'The root topic.')
  const guides = await create('topic', 'Guides', root, 'About the guides.')
  const deep = await create('topic', 'Deep: nested', guides)
  const install = await create('article', 'Install', guides, 'Run `npm install`.')
  const logo = await upload('logo.png', png)
  const form = await upload('form.csv', 'a,b\n1,2\n')
  const link = (kind: 'article' | 'topic', id: string, text: string) =>
    `<a data-node="articleLink" data-${kind}-id="${id}">${text}</a>`
  await create(
    'article',
    'Everything',
    deep,
    [
      `See ${link('article', install, 'the install guide')}, ${link('topic', guides, 'the guides')}, ${link('topic', root, 'the start')} and ${link('article', outside, 'elsewhere')}.`,
      '',
      `![Logo](${logo})`,
      '',
      '<div data-node="attachmentsGroup">',
      `<a data-node="attachment" href="${form}">form.csv</a>`,
      '</div>',
      '',
      `The logo again: ![Again](${logo}) and [a site](https://example.com/a).`
    ].join('\n')
  )
  await create('article', 'Plain', guides, 'Only *text*, no reference.')
  const names = (await readdir(fixtures)).filter((name) => name.endsWith('.md')).sort()
  for (const name of names)
    await create('article', name.replace(/\.md$/, ''), deep, await readFile(path.join(fixtures, name), 'utf8'))
  return root
}

/** How many platform fixtures hold a Mermaid block. */
async function fixturesWithDiagrams(): Promise<number> {
  const names = (await readdir(fixtures)).filter((name) => name.endsWith('.md'))
  const texts = await Promise.all(names.map((name) => readFile(path.join(fixtures, name), 'utf8')))
  return texts.filter((text) => text.includes('```mermaid')).length
}

/** The state's rendered hash of each document of `dir`, by key. */
async function recordedRenders(dir: string): Promise<Array<[string, string]>> {
  const state = JSON.parse(await readFile(path.join(dir, '.kbsync/state.json'), 'utf8')) as {
    items: Record<string, {renderedHash?: string}>
  }
  return Object.entries(state.items).flatMap(([key, entry]) =>
    entry.renderedHash === undefined ? [] : [[key, entry.renderedHash] as [string, string]]
  )
}

/** The hash push's render gives each document of `dir` (a fresh scan, the state's ids and file URLs), by path. */
async function pushRenders(dir: string, root: string, notice?: NoticeSettings): Promise<Map<string, string>> {
  const state = JSON.parse(await readFile(path.join(dir, '.kbsync/state.json'), 'utf8')) as {
    items: Record<string, {id?: string}>
    assets: Record<string, {url?: string}>
  }
  const scan = await scanFolder(dir, {})
  const ids = new Map(Object.entries(state.items).flatMap(([key, entry]) => (entry.id ? [[key, entry.id]] : [])))
  const hashes = assetHashesByPath(scan.assets)
  const context: RenderContext = {
    idOf: (target) => ids.get(target),
    rootTopicId: root,
    hashOf: (file) => hashes.get(file),
    fileRef: (sha) => state.assets[sha]?.url,
    ...(notice ? {notice} : {})
  }
  const renders = new Map<string, string>()
  for (const node of Object.values(scan.byPath))
    if (node.body !== undefined) renders.set(node.path, renderBody(node, context, undefined).hash)
  return renders
}

describe('the check after a pull', () => {
  it('takes the render the proof predicted: no parse, past the bound of handed-over trees too', async () => {
    const root = await referencesTopic()
    const dir = await suite.folder()
    // Every tree the hand-over allows is taken: the check has none of the proof's trees (a large pull past the bound).
    while (reserveHandedTree());
    const scanned = scanParses()
    const rendered = bodyTreeParses()
    const result = await pull({dir, client, rootTopicId: root})
    expect(result.status).toBe('ok')
    expect(result.diagnostics.filter((d) => d.rule === 'pull-not-exact')).toEqual([])
    const documents = result.written.filter((file) => file.endsWith('.md'))
    expect(documents.length).toBeGreaterThanOrEqual(7)
    expect(scanParses() - scanned).toBe(0)
    // Today's main parsed each pulled body again past `handedTreesMax` to render it (7); a diagram block is
    // no reference the proof puts back as the render does: those bodies alone are parsed and rendered.
    expect(bodyTreeParses() - rendered).toBe(await fixturesWithDiagrams())
    expect(reserveHandedTree()).toBe(true)
    // What the state records is what push's own render of each file gives.
    const recorded = await recordedRenders(dir)
    // Every document with a body (the nested topic has none).
    expect(recorded.length).toBe(documents.length - 1)
    const renders = await pushRenders(dir, root)
    for (const [key, hash] of recorded) expect([key, hash]).toEqual([key, renders.get(key)])
  })

  it('renders a body the notice opens, as before (the proof does not hold it)', async () => {
    const root = await create('topic', 'Noticed', null)
    const other = await create('article', 'Other', root, 'Plain.')
    await create(
      'article',
      'Page',
      root,
      `Some *text* and <a data-node="articleLink" data-article-id="${other}">a link</a>.`
    )
    const dir = await suite.folder()
    const rendered = bodyTreeParses()
    expect((await pull({dir, client, rootTopicId: root, notice: 'Edited in git.'})).status).toBe('ok')
    // Within the bound of handed-over trees: rendered from the proof's trees, not parsed.
    expect(bodyTreeParses() - rendered).toBe(0)
    const renders = await pushRenders(dir, root, await noticeOf(dir, 'Edited in git.', undefined))
    const recorded = await recordedRenders(dir)
    expect(recorded.length).toBe(2)
    for (const [key, hash] of recorded) expect([key, hash]).toEqual([key, renders.get(key)])
  })
})

describe('a predicted render', () => {
  const context = (ids: Record<string, string>, refs: Record<string, string>): RenderContext => ({
    idOf: (target) => ids[target],
    rootTopicId: 'ROOT',
    hashOf: (file) => (refs[file] === undefined ? undefined : `sha-${file}`),
    fileRef: (sha) => refs[sha.slice(4)]
  })
  const origins = new Map<string, Origin>([
    ['a.md', {kind: 'article', id: 'A'}],
    ['t/_index.md', {kind: 'topic', id: 'T'}],
    ['_assets/x.png', {url: 'https://files/x'}]
  ])
  const refs = [
    {kind: 'link' as const, url: 'a.md'},
    {kind: 'link' as const, url: 't/_index.md'},
    {kind: 'image' as const, url: '_assets/x.png'}
  ]
  const resolved: Resolved[] = [
    {link: {target: 'a.md', kind: 'article'}},
    {link: {target: 't', kind: 'topic'}},
    {asset: {path: '_assets/x.png'}}
  ]

  it('holds only where every reference resolves to what the proof restored', () => {
    const prediction = predictRender(refs, origins, 'Body.')!
    const good = context({'a.md': 'A', t: 'T'}, {'_assets/x.png': 'https://files/x'})
    expect(predictedRender('article', resolved, prediction, good)).toEqual({hash: prediction.hash, complete: true})
    // The notice opens an article's render, not a topic's.
    expect(predictedRender('article', resolved, prediction, {...good, notice: {text: 'N'}})).toBeUndefined()
    expect(predictedRender('topic', resolved, prediction, {...good, notice: {text: 'N'}})).toBeDefined()
    const wrongId = fc.string().filter((id) => id !== 'A' && id !== 'T')
    fc.assert(
      fc.property(fc.constantFrom('a.md', 't'), wrongId, fc.integer({min: 0, max: 2}), (target, wrong, index) => {
        // Another id, a file known under another URL, a reference more or less, another resolution: rendered.
        const assets = {'_assets/x.png': 'https://files/x'}
        expect(
          predictedRender('article', resolved, prediction, context({'a.md': 'A', t: 'T', [target]: wrong}, assets))
        ).toBeUndefined()
        expect(
          predictedRender('article', resolved, prediction, context({'a.md': 'A', t: 'T'}, {'_assets/x.png': wrong}))
        ).toBeUndefined()
        expect(predictedRender('article', resolved.toSpliced(index, 1), prediction, good)).toBeUndefined()
        const other = resolved.map((r, at) => (at === index ? ({plain: true} as const) : r))
        expect(predictedRender('article', other, prediction, good)).toBeUndefined()
        const swapped = resolved.map((r, at) => (at === index ? resolved[(index + 1) % 3]! : r))
        expect(predictedRender('article', swapped, prediction, good)).toBeUndefined()
      })
    )
  })

  it('is not made for a reference the proof does not put back as the render would', () => {
    expect(predictRender([...refs, {kind: 'diagram', url: ''}], origins, 'Body.')).toBeUndefined()
    expect(predictRender([{kind: 'link', url: '_assets/x.png'}], origins, 'Body.')).toBeUndefined()
    expect(predictRender([{kind: 'image', url: 'a.md'}], origins, 'Body.')).toBeUndefined()
    expect(predictRender([{kind: 'link', url: 'other.md'}], origins, 'Body.')).toBeUndefined()
    expect(predictRender([], origins, 'Body.')).toEqual({hash: expect.any(String), expects: []})
  })
})
