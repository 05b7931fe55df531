import fc from 'fast-check'
import type {Root} from 'mdast'
import {describe, expect, it} from 'vitest'
import {resolveLocal} from '../../src/local/index.js'
import {assetsFolder, localizeTree, planAssets, relativeUrl, restoreTree, safeStem} from '../../src/sync/pull/index.js'
import {localizedTree} from '../../src/sync/shared/localize.js'
import type {RemoteDetail} from '../../src/sync/shared/remote.js'
import {fileUrls} from '../../src/sync/shared/localize.js'

const segment = fc.string({minLength: 1, maxLength: 12}).map(safeStem)

describe('relativeUrl', () => {
  it("reads back through push's resolveLocal to the same path (property)", () => {
    fc.assert(
      fc.property(
        fc.array(segment, {minLength: 1, maxLength: 4}),
        fc.array(segment, {minLength: 1, maxLength: 4}),
        (from, to) => {
          const file = from.join('/') + '.md'
          const target = to.join('/') + '.md'
          expect(resolveLocal(file, relativeUrl(file, target))).toBe(target)
        }
      ),
      {numRuns: 300}
    )
  })

  it('escapes what a link destination would misread', () => {
    expect(relativeUrl('a/b.md', 'c/100% #1 (2).md')).toBe('../c/100%25%20%231%20(2).md')
    expect(relativeUrl('a/_index.md', '_index.md')).toBe('../_index.md')
  })
})

function body(): Root {
  return {
    type: 'root',
    children: [
      {
        type: 'paragraph',
        children: [
          {type: 'articleLink', articleId: 'A1', children: [{type: 'text', value: 'install'}]},
          {type: 'text', value: ' and '},
          {type: 'articleLink', topicId: 'T1', children: [{type: 'text', value: 'guides'}]},
          {type: 'text', value: ' and '},
          {type: 'articleLink', articleId: 'ELSEWHERE', children: [{type: 'text', value: 'not pulled'}]},
          {type: 'image', url: 'https://files/x?Id=g1', alt: 'logo', width: 300},
          {type: 'image', url: 'https://example.com/ext.png', alt: 'external'}
        ]
      },
      {type: 'attachmentsGroup', children: [{type: 'attachment', url: 'https://files/x?Id=g2', name: 'form.csv'}]}
    ]
  }
}

describe('localizeTree and restoreTree', () => {
  const context = {
    file: 'Guides/Start.md',
    documentOf: (kind: 'article' | 'topic', id: string) =>
      kind === 'article' && id === 'A1'
        ? 'Guides/Install.md'
        : kind === 'topic' && id === 'T1'
          ? 'Guides/_index.md'
          : undefined,
    assetOf: (url: string) =>
      ({
        'https://files/x?Id=g1': 'Guides/_assets/Start/logo.png',
        'https://files/x?Id=g2': 'Guides/_assets/Start/form.csv'
      })[url]
  }

  it('turns pulled references into relative links and paths, and leaves the rest in dialect form', () => {
    const tree = body()
    localizeTree(tree, context)
    const paragraph = tree.children[0] as unknown as {children: Array<Record<string, unknown>>}
    expect(paragraph.children[0]).toMatchObject({type: 'link', url: 'Install.md'})
    expect(paragraph.children[2]).toMatchObject({type: 'link', url: '_index.md'})
    expect(paragraph.children[4]).toMatchObject({type: 'articleLink', articleId: 'ELSEWHERE'})
    expect(paragraph.children[5]).toMatchObject({type: 'image', url: '_assets/Start/logo.png', width: 300})
    expect(paragraph.children[6]).toMatchObject({type: 'image', url: 'https://example.com/ext.png'})
    expect((tree.children[1] as {children: Array<{url: string}>}).children[0]!.url).toBe('_assets/Start/form.csv')
  })

  it('localizedTree gives the same tree as localizeTree, its input unchanged (pull proves against it)', () => {
    const tree = body()
    const {tree: localized, origins} = localizedTree(tree, context)
    expect(tree).toEqual(body())
    const inPlace = body()
    expect(origins).toEqual(localizeTree(inPlace, context))
    expect(localized).toEqual(inPlace)
  })

  it('restores exactly the original tree', () => {
    const tree = body()
    const origins = localizeTree(tree, context)
    restoreTree(tree, origins)
    expect(tree).toEqual(body())
  })
})

describe('planAssets', () => {
  const detail = (files: Array<[string, string]>): RemoteDetail => ({
    version: 1,
    updatedAt: 't',
    title: 't',
    body: '',
    bodyHash: '',
    attachments: {},
    files: files.map(([guid, name]) => ({guid, name, size: 1, url: `https://files/x?Id=${guid}`}))
  })

  it('puts each listed file beside the first document listing it, with distinct portable names', () => {
    const plans = planAssets([
      {id: 'A2', path: 'b.md', file: 'b.md', urls: fileUrls(body()), files: detail([['g1', 'logo.png']]).files},
      {
        id: 'A1',
        path: 'T/a.md',
        file: 'T/a.md',
        urls: fileUrls(body()),
        files: detail([
          ['g1', 'logo.png'],
          ['g2', 'Logo.PNG'],
          ['g3', 'unused.txt']
        ]).files
      }
    ])
    expect(assetsFolder('T/_index.md')).toBe('T/_assets/_index')
    expect([...plans.values()].map((a) => [a.url, a.path, a.ownerId])).toEqual([
      ['https://files/x?Id=g1', 'T/_assets/a/logo.png', 'A1'],
      ['https://files/x?Id=g2', 'T/_assets/a/Logo (2).PNG', 'A1']
    ])
  })
})
