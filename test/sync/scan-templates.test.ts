/**
 * The scan of a push keeps the template of each body it parses within a
 * budget of characters; past it, a body is parsed again before its write.
 * The budget was 32 M characters, about 14,000 articles of the scale
 * bench: its 30,000 (issue 32) parsed half their bodies twice. Now the
 * default heap holds the templates of all 30,000, and a heap bounded by
 * `--max-old-space-size` keeps fewer.
 */
import {describe, expect, it} from 'vitest'
import {articleBody} from '../../bench/scale-tree.js'
import {dropPositions, parseBodyFacts, type LocalNode} from '../../src/local/index.js'
import {heldTemplate} from '../../src/sync/shared/render-slots.js'
import {scanTemplateCharsMax, scanTemplates, templateCharsWithin} from '../../src/sync/push/scan-templates.js'
import {templateWeight} from '../../src/sync/shared/render-slots.js'

/** Article `i` of the scale bench (three links, no image) as the scan offers it, and its tree. */
function scaleArticle(i: number): {node: LocalNode; tree: ReturnType<typeof parseBodyFacts>['tree']} {
  let seed = i + 1
  const next = () => ((seed = (seed * 48271) % 2147483647) - 1) / 2147483646
  const links = ['page-a.md', '../topic-2/page-b.md', '../topic-9/page-c.md']
  const body = articleBody(i, links, undefined, next)
  const path = `topic-${i}/page-${i}.md`
  const {facts, tree} = parseBodyFacts(body, path)
  dropPositions(tree)
  const resolutions = facts.refs.map((ref) => ({link: {target: ref.url, kind: 'article' as const}}))
  const node: Partial<LocalNode> = {
    path,
    kind: 'article',
    file: path,
    body,
    bodyKey: path,
    fileBodyKey: path,
    resolutions
  }
  return {node: node as LocalNode, tree}
}

describe('the templates of a push', () => {
  it('hold the 30,000 articles of the scale bench within the default heap', () => {
    const keep = scanTemplates({rootTopicId: 'ROOT'})
    let chars = 0
    const sample = 40
    for (let i = 0; i < sample; i++) {
      const {node, tree} = scaleArticle(i)
      expect(keep(node, tree)).toBe(true)
      chars += templateWeight(heldTemplate(node)!)
    }
    expect(30_000 * (chars / sample)).toBeLessThanOrEqual(scanTemplateCharsMax)
  })

  it('take at most a sixteenth of a bounded heap, two bytes a character', () => {
    expect(templateCharsWithin(1024 * 1024 * 1024)).toBe(33_554_432)
    expect(templateCharsWithin(8 * 1024 * 1024 * 1024)).toBe(96_000_000)
  })

  it('are not kept past the budget: that body is parsed again before its write', () => {
    const {node, tree} = scaleArticle(1)
    expect(scanTemplates({rootTopicId: 'ROOT', charsMax: 100})(node, tree)).toBe(false)
    expect(heldTemplate(node)).toBeUndefined()
  })
})
