/**
 * Adversarial nesting (issue 22, finding 6): the parsers never throw and
 * hold every tree to `maxNesting`, naming the line of what they capped; the
 * serialisers refuse a deeper tree built by code with a `NestingError`, not
 * a stack overflow; and every serialiser takes a tree at the limit with a
 * wide margin of stack to spare.
 */
import fc from 'fast-check'
import type {Nodes, Root} from 'mdast'
import {VFile} from 'vfile'
import {describe, expect, it} from 'vitest'
import {findTooDeep, maxNesting, NestingError, nestingRule} from '../../plugins/depth.js'
import {
  gfmToKbTree,
  kbToHtml,
  kbTreeToCommentHtml,
  kbTreeToGfm,
  kbTreeToHtml,
  parseFailedRule,
  parseKb,
  stringifyKb
} from '../../src/dialect/index.js'
import {parseGuarded} from '../../src/dialect/guard.js'

/** `depth` levels of `wrap` around a paragraph, at the root. */
function nested(depth: number, wrap: (child: Nodes) => Nodes): Root {
  let node: Nodes = {type: 'paragraph', children: [{type: 'text', value: 'x'}]}
  for (let level = 0; level < depth; level++) node = wrap(node)
  return {type: 'root', children: [node as Root['children'][number]]}
}

const quote = (child: Nodes): Nodes => ({type: 'blockquote', children: [child as never]})
const list = (child: Nodes): Nodes => ({
  type: 'list',
  ordered: false,
  spread: false,
  children: [{type: 'listItem', spread: false, children: [child as never]}]
})
const hint = (child: Nodes): Nodes => ({type: 'hintBlock', color: 'blue', children: [child as never]}) as never

/** Depth of the deepest node below the root. */
function depthOf(tree: Root): number {
  let deepest = 0
  const stack: Array<[Nodes, number]> = [[tree, 0]]
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    deepest = Math.max(deepest, entry[1])
    if ('children' in entry[0]) for (const child of entry[0].children as Nodes[]) stack.push([child, entry[1] + 1])
  }
  return deepest
}

/** Runs `run` with about `frames` frames already on the stack, as when it is called deep inside a program. */
function deepInStack<T>(frames: number, run: () => T): T {
  return frames === 0 ? run() : deepInStack(frames - 1, run)
}

describe('parsing never throws and caps nesting', () => {
  it('`>` 5,002 times parses to a tree within the limit, with a message naming line 1', () => {
    const file = new VFile({value: '>'.repeat(5002)})
    const tree = parseKb(file)
    expect(depthOf(tree)).toBeLessThanOrEqual(maxNesting)
    const message = file.messages.find((m) => m.ruleId === nestingRule)
    expect(message?.line).toBe(1)
    expect(message?.reason).toMatch(/^Nesting deeper than 100 levels at line 1/)
    expect(stringifyKb(tree)).toContain('>>>>')
  })

  it('the capped text is kept: the source of the cut subtree is in the tree', () => {
    const source = '> '.repeat(150) + 'deep text'
    const tree = parseKb(source)
    expect(stringifyKb(tree)).toContain('deep text')
  })

  it('130,000 unclosed tags (as many messages, more than a call takes arguments) parse, each reported', () => {
    const file = new VFile({value: '<u>'.repeat(130_000)})
    parseKb(file)
    expect(file.messages).toHaveLength(130_000)
    expect(file.messages.every((m) => m.ruleId === 'kb-unclosed-tag')).toBe(true)
  })

  it('a deeply nested list through the GFM conversion is an error at its line, and the tree serialises', () => {
    const markdown = 'Intro\n\n' + '- '.repeat(300) + 'x\n'
    const {tree, messages} = gfmToKbTree(markdown, {path: 'deep.md'})
    const message = messages.find((m) => m.ruleId === nestingRule)
    expect(message?.fatal).toBe(true)
    expect(message?.line).toBe(3)
    expect(depthOf(tree)).toBeLessThanOrEqual(maxNesting)
    expect(() => stringifyKb(tree)).not.toThrow()
  })

  it('pairing tags cannot nest past the limit either', () => {
    const file = new VFile({value: '<u>'.repeat(300) + 'x' + '</u>'.repeat(300)})
    const tree = parseKb(file)
    expect(depthOf(tree)).toBeLessThanOrEqual(maxNesting)
    expect(() => kbTreeToHtml(tree)).not.toThrow()
  })

  it('the last resort: a parser that throws leaves the source whole as one leaf, with a message instead of its own', () => {
    const file = new VFile({value: 'a\nbody'})
    file.message('from before the parse')
    const tree = parseGuarded('a\nbody', file, 'html', () => {
      file.message('from the failed parse')
      throw new Error('boom')
    })
    expect(tree.children).toMatchObject([
      {type: 'html', value: 'a\nbody', position: {end: {line: 2, column: 5, offset: 6}}}
    ])
    expect(file.messages.map((m) => m.ruleId ?? m.reason)).toEqual(['from before the parse', parseFailedRule])
    expect(file.messages[1]!.reason).toMatch(/could not be parsed \(boom\)/)
  })

  // Strings of the constructs that nest (quotes, list markers, indentation, dialect tags, emphasis), glued at random.
  const piece = fc.constantFrom(
    '>',
    '> ',
    '- ',
    '1. ',
    '    ',
    '\t',
    '\n',
    '\n\n',
    '*',
    '_',
    '~~',
    '[',
    '](x)',
    '<u>',
    '</u>',
    '<mark>',
    '</mark>',
    '<details>',
    '</details>',
    '<summary>',
    '</summary>',
    '<div data-node="hint" data-color="blue">',
    '</div>',
    '|',
    '| --- |',
    '`',
    'a',
    ' '
  )
  const hostile = fc
    .array(fc.oneof(piece, fc.string({maxLength: 4})), {maxLength: 400})
    .chain((pieces) =>
      fc
        .nat({max: 400})
        .map((times) => pieces.join('').repeat(Math.max(1, Math.floor(times / Math.max(1, pieces.length)))))
    )

  it('property: parseKb and gfmToKbTree never throw, and what they give always serialises', () => {
    fc.assert(
      fc.property(hostile, (source) => {
        const tree = parseKb(new VFile({value: source}))
        expect(findTooDeep(tree)).toBeUndefined()
        stringifyKb(tree)
        kbTreeToHtml(tree)
        const converted = gfmToKbTree(source).tree
        expect(findTooDeep(converted)).toBeUndefined()
        stringifyKb(converted)
      }),
      {numRuns: 150}
    )
  })
})

describe('serialisers refuse a tree built deeper than the limit', () => {
  const serialisers: Array<[string, (tree: Root) => unknown]> = [
    ['stringifyKb', stringifyKb],
    ['kbTreeToGfm', kbTreeToGfm],
    ['kbTreeToHtml', kbTreeToHtml],
    ['kbTreeToCommentHtml', kbTreeToCommentHtml]
  ]
  for (const [name, serialise] of serialisers) {
    it(`${name} on 1,100 levels throws a NestingError naming the limit, not a RangeError`, () => {
      const tree = nested(1100, quote)
      tree.children[0]!.position = {start: {line: 4, column: 1}, end: {line: 9, column: 1}}
      let thrown: unknown
      try {
        serialise(tree)
      } catch (error) {
        thrown = error
      }
      expect(thrown).toBeInstanceOf(NestingError)
      expect((thrown as Error).message).toMatch(/^Nesting deeper than 100 levels/)
    })
  }

  it('the error names the line of the subtree at the limit when the tree has positions', () => {
    const tree = nested(150, quote)
    let node: Nodes = tree
    for (let level = 0; level < maxNesting; level++) node = (node as {children: Nodes[]}).children[0]!
    node.position = {start: {line: 12, column: 3}, end: {line: 12, column: 9}}
    expect(() => stringifyKb(tree)).toThrow(/^Nesting deeper than 100 levels at line 12:/)
  })

  const constructs: Array<[string, (child: Nodes) => Nodes]> = [
    ['blockquotes', quote],
    ['lists', list],
    ['hint blocks', hint]
  ]
  for (const [name, wrap] of constructs) {
    it(`a tree of ${name} at the limit serialises everywhere, with 1,000 frames already on the stack`, () => {
      // The paragraph and its text take two levels below the wrappers; a list level takes two.
      const levels = wrap === list ? maxNesting / 2 - 1 : maxNesting - 2
      const make = () => nested(levels, wrap)
      expect(findTooDeep(make())).toBeUndefined()
      expect(findTooDeep(nested(levels + 1, wrap))).toBeDefined()
      deepInStack(1000, () => {
        for (const [, serialise] of serialisers) serialise(make())
        structuredClone(make())
      })
    })
  }

  it('kbToHtml of a body nested 5,000 levels renders (capped) instead of failing', () => {
    expect(kbToHtml('> '.repeat(5000) + 'x')).toContain('<blockquote>')
  })
})

describe('the remark preset in a pipeline of its own', () => {
  it('caps nesting too: a body of 5,002 quotes serialises, with the message on its line', async () => {
    const {unified} = await import('unified')
    const {default: remarkParse} = await import('remark-parse')
    const {default: remarkStringify} = await import('remark-stringify')
    const {remarkKb} = await import('../../plugins/index.js')
    const file = new VFile('Intro.\n\n' + '>'.repeat(5002) + ' deep\n')
    const output = String(unified().use(remarkParse).use(remarkKb).use(remarkStringify).processSync(file))
    expect(output).toContain('Intro.')
    expect(file.messages.map((message) => [message.ruleId, message.line])).toContainEqual([nestingRule, 3])
  })
})
