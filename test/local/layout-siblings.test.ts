/**
 * A folder's layout costs its entries, not their product (issue 32): each
 * subfolder looks up the file beside it that names it (`guides.md` beside
 * `guides/`), once. On main each subfolder scanned every file of its
 * folder: a folder of thousands of bundles beside thousands of pages (a Hugo
 * section) made millions of name comparisons. The layout is the same.
 */
import fc from 'fast-check'
import {describe, expect, it, vi} from 'vitest'
import {folderLayout, type LayoutNode, type LayoutTopic} from '../../src/local/layout.js'
import type {WalkedDir} from '../../src/local/walk.js'

const counted = vi.hoisted(() => ({stems: 0}))
vi.mock('../../src/local/file-names.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/local/file-names.js')>()
  return {
    ...actual,
    documentStem: (file: string) => {
      counted.stems++
      return actual.documentStem(file)
    }
  }
})

/** A folder of `count` pages `page-n.md` and `count` bundles `bundle-n/index.md`, and one folder `page-1/` beside its page. */
function section(count: number): WalkedDir {
  const files = Array.from({length: count}, (_, n) => `docs/page-${n}.md`)
  const dirs: WalkedDir[] = Array.from({length: count}, (_, n) => {
    const folder = n === 0 ? 'docs/page-1' : `docs/bundle-${n}`
    return {path: folder, files: [n === 0 ? `${folder}/more.md` : `${folder}/index.md`], others: [], dirs: []}
  })
  return {path: '', files: [], others: [], dirs: [{path: 'docs', files, others: [], dirs}]}
}

function stemsFor(count: number): number {
  counted.stems = 0
  folderLayout(section(count), [])
  return counted.stems
}

/** The layout as plain lines: kind, key or file, in order. */
function lines(node: LayoutNode, out: string[] = [], depth = 0): string[] {
  if (node.kind === 'article') out.push(`${' '.repeat(depth)}article ${node.file}`)
  else {
    out.push(`${' '.repeat(depth)}topic ${node.key} ${node.file ?? '-'}`)
    for (const child of node.children) lines(child, out, depth + 1)
  }
  return out
}

describe('the layout of a folder of many pages and bundles', () => {
  it('names each file once, whatever the number of subfolders', () => {
    const small = stemsFor(200)
    const large = stemsFor(600)
    // Main: 40,000 and 360,000 comparisons (each subfolder against each page).
    expect(large).toBeLessThanOrEqual(3 * small + 10)
    expect(large).toBeLessThan(5000)
  })

  it('makes the page beside a folder its body, the other pages articles', () => {
    const layout = lines(folderLayout(section(3), []))
    expect(layout).toEqual([
      'topic  -',
      ' topic docs -',
      '  article docs/page-0.md',
      '  article docs/page-2.md',
      '  topic docs/page-1 docs/page-1.md',
      '   article docs/page-1/more.md',
      '  topic docs/bundle-1 docs/bundle-1/index.md',
      '  topic docs/bundle-2 docs/bundle-2/index.md'
    ])
  })

  it('matches a subfolder to the first file naming it in any case and normal form, never the body', () => {
    const name = fc.constantFrom('guides', 'Guides', 'GUIDES', 'café', 'cafe\u0301', 'Café', 'other', '_index', 'index')
    fc.assert(
      fc.property(
        fc.uniqueArray(name, {maxLength: 6}),
        fc.constantFrom('Guides', 'cafe\u0301', 'index'),
        (stems, folder) => {
          const files = stems.map((stem) => `d/${stem}.md`)
          const walked: WalkedDir = {
            path: '',
            files: [],
            others: [],
            dirs: [
              {
                path: 'd',
                files,
                others: [],
                dirs: [{path: `d/${folder}`, files: [`d/${folder}/x.md`], others: [], dirs: []}]
              }
            ]
          }
          const d = (folderLayout(walked, []) as LayoutTopic).children[0] as LayoutTopic
          const sub = d.children.find((child): child is LayoutTopic => child.kind === 'topic')
          const key = folder.normalize('NFC').toLowerCase()
          const expected = files.find(
            (file) => file !== d.file && file.slice(2, -3).normalize('NFC').toLowerCase() === key
          )
          expect(sub?.file).toBe(expected)
        }
      )
    )
  })
})
