/**
 * The dialect in unified pipelines built by others (issue 33): the output
 * does not depend on the order of `remarkKb` and `remark-gfm`; `parseKb`'s
 * messages are reachable without a VFile; `stringifyKb` given a remark-gfm
 * tree it cannot write says which node and points to `gfmToKbTree`.
 */
import type {Root} from 'mdast'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkStringify from 'remark-stringify'
import {unified} from 'unified'
import {VFile} from 'vfile'
import {describe, expect, it} from 'vitest'
import {remarkKb, remarkKbMarkdownStyle, remarkKbUnderline} from '../../plugins/index.js'
import {parseKb, stringifyKb} from '../../src/dialect/index.js'
import {fixtureCases, fixturesRoot} from './helpers.js'

const gfmSample = '| a | b |\n|---|:-:|\n| 1 | 2 |\n\nx~~y~~ <u>u</u> www.example.com\n\n- [ ] task\n'

const base = () => unified().use(remarkParse)
const pipelines = {
  kbThenGfm: base().use(remarkKb).use(remarkGfm).use(remarkStringify),
  gfmThenKb: base().use(remarkGfm).use(remarkKb).use(remarkStringify),
  constructsThenGfm: base().use(remarkKbMarkdownStyle).use(remarkKbUnderline).use(remarkGfm).use(remarkStringify),
  gfmThenConstructs: base().use(remarkGfm).use(remarkKbMarkdownStyle).use(remarkKbUnderline).use(remarkStringify)
}
const write = async (source: string, pipeline: keyof typeof pipelines) =>
  String(await pipelines[pipeline].process(source))

describe('remarkKb and remark-gfm, in either order', () => {
  it('write tables with `| --- |` rules both ways', async () => {
    const kbFirst = await write(gfmSample, 'kbThenGfm')
    expect(kbFirst).toBe(await write(gfmSample, 'gfmThenKb'))
    expect(kbFirst).toContain('| a | b |\n| --- | :-: |\n| 1 | 2 |')
  })

  it('give the same output on every dialect fixture', async () => {
    for (const name of fixtureCases()) {
      const source = readFileSync(join(fixturesRoot, name, 'input.md'), 'utf8')
      expect(await write(source, 'kbThenGfm'), name).toBe(await write(source, 'gfmThenKb'))
    }
  })

  it('hold for the single construct plugins too', async () => {
    const styleFirst = await write(gfmSample, 'constructsThenGfm')
    expect(styleFirst).toBe(await write(gfmSample, 'gfmThenConstructs'))
    expect(styleFirst).toContain('| --- | :-: |')
  })
})

describe("parseKb's messages without a VFile", () => {
  const source = 'Text\n\n<div data-node="hintBlock" data-color="blue">\n\nNever closed.\n'

  it('are on the tree, in document order, with line and rule id', () => {
    const messages = parseKb(source).data?.messages ?? []
    expect(messages.length).toBeGreaterThan(0)
    expect(messages[0]).toMatchObject({line: 3, ruleId: 'kb-unclosed-block', source: 'kbsync'})
  })

  it('are the ones a VFile collects, and leave serialised and compared trees alone', () => {
    const file = new VFile(source)
    const tree = parseKb(file)
    expect(tree.data?.messages?.map(String)).toEqual(file.messages.map(String))
    expect(JSON.stringify(tree)).not.toContain('messages')
    expect(parseKb('Plain.\n').data?.messages).toEqual([])
  })
})

describe('stringifyKb on a tree it cannot write', () => {
  it('names the node and points to gfmToKbTree', () => {
    const processor = unified().use(remarkParse).use(remarkGfm)
    const tree = processor.runSync(processor.parse('A note[^1].\n\n[^1]: The note.\n')) as Root
    expect(() => stringifyKb(tree)).toThrow(/`footnoteReference`.*gfmToKbTree/)
  })
})
