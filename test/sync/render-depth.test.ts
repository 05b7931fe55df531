/**
 * Rendering a body the scan took for fine (read from the body cache, or as
 * plain) that nests past the dialect's limit (issue 22, finding 6): the
 * render fails with file and line instead of writing the capped body, and
 * rendering ahead, outside any step, never lets that end the process. The
 * scan itself parses bodies whose list markers or emphasis could nest that
 * deep.
 */
import {describe, expect, it} from 'vitest'
import type {LocalNode} from '../../src/local/index.js'
import {bodyTree} from '../../src/local/index.js'
import {plainBodyRefs} from '../../src/local/plain-body.js'
import {Prerenderer} from '../../src/sync/push/prerender.js'
import type {RenderContext} from '../../src/sync/shared/render.js'

const context: RenderContext = {
  idOf: () => undefined,
  rootTopicId: null,
  hashOf: () => undefined,
  fileRef: () => undefined
}

/** An article as a scan leaves it when it read the body's facts from the cache: no tree yet, no reference. */
function cachedArticle(body: string): LocalNode {
  return {
    kind: 'article',
    path: 'deep.md',
    file: 'deep.md',
    title: 'Deep',
    source: body,
    sourceHash: 'hash',
    hasFrontMatter: false,
    body,
    bodyKey: 'key',
    resolutions: [],
    refs: {links: [], assets: []}
  }
}

const deepList = 'Intro\n\n' + '- '.repeat(300) + 'x\n'

describe('a body nested past the limit at render time', () => {
  it('fails the render with file and line, not a capped body', () => {
    expect(() => bodyTree(cachedArticle(deepList))).toThrow(/^deep\.md:3: Nesting deeper than 100 levels at line 3/)
  })

  // Thrown from rendering ahead, the error would be uncaught: vitest reports it as an unhandled error and the run fails.
  it('rendering ahead leaves it to its write (nothing thrown outside a step)', async () => {
    const node = cachedArticle(deepList)
    const ahead = new Prerenderer(context, process.cwd())
    ahead.offer([node])
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve))
    expect(node.tree).toBeUndefined()
  })

  it('the scan parses a body whose list markers in a row or emphasis could nest past the limit', () => {
    expect(plainBodyRefs(deepList)).toBeUndefined()
    expect(plainBodyRefs('1. - * + - 1) - - x\n')).toBeUndefined()
    expect(plainBodyRefs('*a '.repeat(80) + 'x' + ' a*'.repeat(80))).toBeUndefined()
    // What documents hold stays plain: a few levels of markers, emphasis spread over blocks.
    expect(plainBodyRefs('- - x\n')).toEqual([])
    expect(plainBodyRefs('Some *emphasis* and **strong** text.\n\n'.repeat(40))).toEqual([])
  })
})
