/**
 * The cheaper read-back proof of a pull (`src/sync/shared/proof.ts`):
 * equal trees (positions aside) stand for equal canonical text, so the
 * proof accepts and rejects exactly what comparing the two serialisations
 * did, on the dialect fixtures, the platform bodies, bodies pushed from the
 * real docs trees, and generated bodies, for the texts pull writes and for
 * texts that are not the body.
 */
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import type {Root} from 'mdast'
import {describe, expect, it} from 'vitest'
import {gfmToKb, kbTreeToGfm, parseKb, stringifyKb} from '../../src/dialect/index.js'
import {toKbTree} from '../../src/local/index.js'
import {readsBackAs, sameBody, sameTree} from '../../src/sync/shared/proof.js'
import {fixtureCases, fixturesRoot, platformBodies} from '../dialect/helpers.js'
import {allTrees} from '../e2e/docs-sites.js'

/** The proof as it was: both trees serialised, the texts compared. */
function oldProof(tree: Root, canonical: string): boolean {
  return sameBody(stringifyKb(tree), canonical)
}

/** Both proofs of every text pull could write for `body`, and of a few it must refuse; the fast path's hits counted. */
function checkBody(body: string, tally: {hits: number; total: number}): void {
  const parsed = parseKb(body)
  const canonical = stringifyKb(parsed)
  const texts = [
    kbTreeToGfm(structuredClone(parsed)).markdown,
    stringifyKb(structuredClone(parsed)),
    // Not the body: a word changed, a line dropped, a blank line added inside.
    canonical.replace(/[a-z]/, 'Q'),
    canonical.split('\n').slice(1).join('\n'),
    canonical.replace('\n', '\n\n')
  ]
  for (const text of texts) {
    let tree: Root
    try {
      tree = toKbTree(text, 'doc.md').tree
    } catch {
      continue
    }
    const fast = sameTree(tree, parsed)
    tally.total++
    if (fast) tally.hits++
    // The law behind the shortcut: equal trees give equal text.
    if (fast) expect(stringifyKb(tree)).toBe(stringifyKb(parsed))
    expect(readsBackAs(tree, parsed, canonical)).toBe(oldProof(tree, canonical))
  }
}

/** The Markdown files of the docs trees (our sites, and the real ones when there), pushed as the platform would hold them (four of each tree). */
function treeBodies(): string[] {
  const bodies: string[] = []
  for (const {source} of allTrees()) {
    const files = (readdirSync(source, {recursive: true}) as string[]).filter((file) => /\.mdx?$/.test(file)).sort()
    // Four files of each tree, spread over it: the whole trees cost minutes on a loaded machine.
    const sample = files.filter((_, index) => index % Math.ceil(files.length / 4) === 0)
    for (const file of sample) {
      try {
        bodies.push(gfmToKb(readFileSync(path.join(source, file), 'utf8')).markdown)
      } catch {
        // A file push refuses is no body.
      }
    }
  }
  return bodies
}

describe('the pull proof: comparing trees once agrees with serialising both', () => {
  it('on the dialect fixtures and the platform bodies', () => {
    const tally = {hits: 0, total: 0}
    for (const name of fixtureCases())
      checkBody(readFileSync(path.join(fixturesRoot, name, 'output.md'), 'utf8'), tally)
    for (const [, body] of platformBodies()) checkBody(body, tally)
    expect(tally.total).toBeGreaterThan(300)
    expect(tally.hits).toBeGreaterThan(0)
  })

  it('on bodies pushed from the docs trees', () => {
    const tally = {hits: 0, total: 0}
    for (const body of treeBodies()) checkBody(body, tally)
    // Four files of each of our seven sites at least, five texts each (a few may not parse as a file).
    expect(tally.total).toBeGreaterThan(60)
  }, 120_000)

  const word = fc.constantFrom('alpha', 'beta', 'x_y', 'a*b', '<u>', 'it’s', '1.', '#', '[x]', 'a&b', 'é')
  const words = fc.array(word, {minLength: 1, maxLength: 5}).map((list) => list.join(' '))
  const block = fc.oneof(
    words,
    words.map((text) => `## ${text}`),
    words.map((text) => `**${text}** and _${text}_ and \`${text}\``),
    fc.array(words, {minLength: 1, maxLength: 3}).map((items) => items.map((item) => `- ${item}`).join('\n')),
    fc
      .array(words, {minLength: 1, maxLength: 3})
      .map((items) => items.map((item, n) => `${n + 1}. ${item}`).join('\n')),
    words.map((text) => `> ${text}`),
    words.map((text) => `| a | b |\n| --- | --- |\n| ${text} | ${text} |`),
    words.map((text) => '```js\n' + text + '\n```'),
    words.map((text) => `<div class="hint-block" data-color="blue">\n\n${text}\n\n</div>`),
    words.map((text) => `[${text}](https://example.com/a_b) and ![${text}](https://files/x?Id=1)`),
    words.map((text) => `<a data-article-id="42">${text}</a>`),
    words.map((text) => `${text}  \n${text}`)
  )
  it('on generated bodies', () => {
    const tally = {hits: 0, total: 0}
    fc.assert(
      fc.property(fc.array(block, {minLength: 1, maxLength: 6}), (blocks) =>
        checkBody(blocks.join('\n\n') + '\n', tally)
      ),
      {numRuns: 60}
    )
    expect(tally.hits).toBeGreaterThan(0)
  })
})

describe('sameTree', () => {
  it('sees positions aside, and every other difference: a key, a value, a length, undefined against a missing key', () => {
    const at = (line: number) => ({start: {line, column: 1}, end: {line, column: 2}})
    expect(sameTree({type: 'text', value: 'a', position: at(1)}, {type: 'text', value: 'a', position: at(9)})).toBe(
      true
    )
    expect(sameTree({type: 'text', value: 'a'}, {type: 'text', value: 'b'})).toBe(false)
    expect(sameTree({children: [1]}, {children: [1, 2]})).toBe(false)
    expect(sameTree({lang: undefined}, {})).toBe(false)
    expect(sameTree({lang: null}, {lang: undefined})).toBe(false)
    expect(sameTree([1], {0: 1})).toBe(false)
    expect(sameTree({type: 'code'}, {type: 'code', lang: 'js'})).toBe(false)
    expect(sameTree({type: 'code', position: at(1)}, {type: 'code'})).toBe(true)
    expect(sameTree({type: 'code', lang: 'js'}, {type: 'code', meta: 'js'})).toBe(false)
  })

  it('walks a tree of any depth without recursion', () => {
    const deep = (depth: number) => {
      let node: {type: string; children: unknown[]} = {type: 'leaf', children: []}
      for (let n = 0; n < depth; n++) node = {type: 'blockquote', children: [node]}
      return node
    }
    expect(sameTree(deep(200_000), deep(200_000))).toBe(true)
  })
})
