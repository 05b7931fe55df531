/** The plugins and the library API: exported names, construct parsing, problems, safe serialising. */
import type {Root} from 'mdast'
import remarkParse from 'remark-parse'
import remarkStringify from 'remark-stringify'
import {unified} from 'unified'
import {visit} from 'unist-util-visit'
import {VFile} from 'vfile'
import {describe, expect, it} from 'vitest'
import * as plugins from '../../plugins/index.js'
import * as root from '../../src/index.js'
import {kbProcessor, parseKb, stringifyKb} from '../../src/dialect/index.js'
import {stripPositions} from './helpers.js'

const pluginNames = [
  'remarkKb',
  'remarkKbUnderline',
  'remarkKbMark',
  'remarkKbArticleLink',
  'remarkKbAnchorLink',
  'remarkKbHintBlock',
  'remarkKbDetails',
  'remarkKbAttachments',
  'remarkKbDrawio',
  'remarkKbVideo',
  'remarkKbImage',
  'remarkKbMarkdownStyle',
  'kbSyntax',
  'kbFromMarkdown',
  'kbToMarkdown',
  'kbTransform',
  'takeKbProblems',
  'reportKbProblems',
  'canonicalOptions',
  'colorTokens'
]

function htmlNodes(tree: Root): string[] {
  const values: string[] = []
  visit(tree, 'html', (node) => {
    values.push(node.value)
  })
  return values
}

function types(tree: Root): string[] {
  const seen: string[] = []
  visit(tree, (node) => {
    seen.push(node.type)
  })
  return seen
}

describe('exported names', () => {
  it('kbsync/plugins exposes the preset, every construct plugin and the mdast extensions', () => {
    for (const name of pluginNames) expect(plugins, name).toHaveProperty(name)
    for (const name of pluginNames.filter((n) => n !== 'canonicalOptions' && n !== 'colorTokens')) {
      expect(typeof (plugins as Record<string, unknown>)[name], name).toBe('function')
    }
  })
  it('the package root exposes parseKb, stringifyKb and kbProcessor', () => {
    expect(typeof root.parseKb).toBe('function')
    expect(typeof root.stringifyKb).toBe('function')
    expect(typeof root.kbProcessor).toBe('function')
  })
  it('the package root exposes what the docs import from it: client, push, pull, server, preview', () => {
    for (const name of [
      'KbClient',
      'ApiError',
      'push',
      'planPush',
      'applyPush',
      'RootTopicError',
      'pull',
      'pullBody',
      'startServer',
      'startPreview',
      'scanFolder'
    ]) {
      expect(typeof (root as Record<string, unknown>)[name], name).toBe('function')
    }
  })
})

describe('constructs leave no html behind', () => {
  const cases: Array<[string, string, string]> = [
    ['underline', 'a <U>b</U>', 'underline'],
    ['mark', "a <mark data-color='red'>b</mark>", 'mark'],
    ['article link', '<a data-article-id=X data-node=articleLink>t</a>', 'articleLink'],
    ['topic link', '<a data-node="articleLink" data-topic-id="T">t</a>', 'articleLink'],
    ['anchor', '<a data-node=anchorLink data-id=x />', 'anchorLink'],
    ['hint tight', '<div data-node=hintBlock data-color=blue>\ntext **b**\n</div>', 'hintBlock'],
    ['hint one line', '<div data-node=hintBlock data-color=blue>text</div>', 'hintBlock'],
    ['details tight', '<details>\n<summary>S</summary>\nbody\n</details>', 'details'],
    [
      'attachments',
      '<div data-node=attachmentsGroup>\n<a data-node=attachment href=https://h/x?a=1>n.pdf</a>\n</div>',
      'attachmentsGroup'
    ],
    ['drawio unquoted', '<iframe data-node=drawio src=https://d/x/y width=600></iframe>', 'drawio'],
    ['video unquoted url', '<video src=https://host/v.mp4></video>', 'video'],
    ['sized image', 'x <img src=https://h/a/b.png alt=A width=3 height=4> y', 'image']
  ]
  for (const [label, input, type] of cases) {
    it(label, () => {
      const file = new VFile(input)
      const tree = parseKb(file)
      expect(htmlNodes(tree)).toEqual([])
      expect(types(tree)).toContain(type)
      expect(file.messages).toEqual([])
    })
  }
  it('reads unquoted URLs whole', () => {
    const tree = parseKb('<video src=https://host/a/v.mp4?x=1&y=2></video>')
    expect(stripPositions(tree).children[0]).toEqual({type: 'video', url: 'https://host/a/v.mp4?x=1&y=2'})
  })
})

describe('bad input is reported, never thrown, never lost', () => {
  const cases: Array<[string, string, string, number, number]> = [
    ['unclosed block', 'a\n\n<div data-node=hintBlock data-color=blue>\n\ntext', 'kb-unclosed-block', 3, 1],
    ['unknown node', '<div data-node=carousel>\n\nx\n\n</div>', 'kb-unknown-node', 1, 1],
    ['invalid colour', 'x <mark data-color=teal>y</mark>', 'kb-invalid-color', 1, 3],
    ['invalid hint colour', '<div data-node=hintBlock data-color=Blue>\n\nx\n\n</div>', 'kb-invalid-color', 1, 1],
    ['stray closing inline', 'a </u> b', 'kb-stray-closing-tag', 1, 3],
    ['stray closing block', 'a\n\n</details>', 'kb-stray-closing-tag', 3, 1]
  ]
  it('lists the messages of a parse in document order', () => {
    const file = new VFile(
      '<div data-node=carousel>\n\nx\n\n</div>\n\n#### deep\n\na </u> b <mark data-color=teal>y</mark>'
    )
    parseKb(file)
    const places = file.messages.map((m) => [m.line, m.column])
    expect(places.length).toBeGreaterThanOrEqual(3)
    expect(places).toEqual([...places].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!))
  })

  // What a construct cannot keep (the node is built without it) is said too.
  const dropped: Array<[string, string, string, number, number]> = [
    ['a size that is no number', 'see <img src="g" alt="a" width="wide"> here', 'kb-invalid-attribute', 1, 5],
    [
      'a diagram width that is no number',
      '<iframe data-node="drawio" src="https://d/x" width="abc"></iframe>',
      'kb-invalid-attribute',
      1,
      1
    ],
    [
      'an article link with both ids',
      'go <a data-node="articleLink" data-article-id="A" data-topic-id="T">there</a>',
      'kb-invalid-attribute',
      1,
      4
    ],
    ['a heading the platform cannot hold', 'text\n\n#### deep', 'kb-heading-depth', 3, 1],
    ['an anchor holding text', 'a <a data-node="anchorLink" data-id="x">text</a>', 'kb-invalid-content', 1, 3]
  ]
  for (const [label, input, ruleId, line, column] of dropped) {
    it(label, () => {
      const file = new VFile(input)
      parseKb(file)
      expect(file.messages.map((m) => [m.ruleId, m.line, m.column])).toContainEqual([ruleId, line, column])
    })
  }

  for (const [label, input, ruleId, line, column] of cases) {
    it(label, () => {
      const file = new VFile(input)
      const tree = parseKb(file)
      expect(file.messages.map((m) => [m.ruleId, m.line, m.column])).toContainEqual([ruleId, line, column])
      const output = stringifyKb(tree)
      for (const word of input.split(/[\s<>]+/).filter((w) => /^[a-z]+$/.test(w))) expect(output).toContain(word)
    })
  }
  it('survives arbitrary junk', () => {
    const junk =
      '<div data-node=hintBlock data-color=blue><details><summary></div></u><mark data-color=x><a data-node=y'
    expect(() => stringifyKb(parseKb(new VFile(junk)))).not.toThrow()
  })
})

describe('serialising is safe', () => {
  it('escapes text that looks like a tag', () => {
    const tree: Root = {
      type: 'root',
      children: [
        {type: 'paragraph', children: [{type: 'text', value: '<u>x</u> and <div data-node=hintBlock data-color=red>'}]}
      ]
    }
    const output = stringifyKb(tree)
    expect(stripPositions(parseKb(output))).toEqual(tree)
  })
  it('keeps quotes and < inside attribute values', () => {
    const tree: Root = {
      type: 'root',
      children: [
        {
          type: 'paragraph',
          children: [
            {type: 'articleLink', articleId: 'a" onclick="x', children: [{type: 'text', value: 't'}]},
            {type: 'anchorLink', identifier: '"><script>'}
          ]
        },
        {type: 'attachmentsGroup', children: [{type: 'attachment', url: 'u"<x>', name: '</a><b>n_1'}]},
        {type: 'video', url: 'https://x/"></video><script>'}
      ]
    }
    const output = stringifyKb(tree)
    expect(output).not.toContain('<script>')
    expect(stripPositions(parseKb(output))).toEqual(tree)
  })
})

describe('unified pipelines', () => {
  it('kbProcessor round-trips and reports problems on the file', async () => {
    const file = await kbProcessor().process('A <mark data-color=red>b</mark> </u>\n')
    expect(String(file)).toBe('A <mark data-color="red">b</mark> </u>\n')
    expect(file.messages.map((m) => m.ruleId)).toEqual(['kb-stray-closing-tag'])
  })
  it('a single construct plugin works alone', () => {
    const processor = unified().use(remarkParse).use(plugins.remarkKbUnderline).use(remarkStringify)
    const tree = processor.runSync(processor.parse('a <u>b</u>'))
    expect(types(tree as Root)).toContain('underline')
    expect(processor.stringify(tree as Root)).toBe('a <u>b</u>\n')
  })
  it('the canonical style applies to ordinary Markdown', () => {
    const input = '* a\n  * b\n\n#### deep\n\n|x|y|\n|-|:-:|\n|1|2|\n\nsnake_case  \nnext\n\n***\n'
    expect(stringifyKb(parseKb(input))).toBe(
      '- a\n    - b\n\n### deep\n\n| x | y |\n| --- | :-: |\n| 1 | 2 |\n\nsnake\\_case\\\nnext\n\n---\n'
    )
  })
})

describe('one construct plugin alone', () => {
  // Every construct of the dialect once: each plugin alone must build its own and leave the others as written.
  const everything = [
    'Text <u>under</u>, <mark data-color="red">marked</mark>, <a data-node="articleLink" data-article-id="A1">an article</a>',
    'and <a data-node="anchorLink" data-id="here" /> an anchor and <img src="https://h/i.png" alt="pic" width="20"> an image.',
    '',
    '<div data-node="hintBlock" data-color="blue">',
    '',
    'A hint with <u>under</u>.',
    '',
    '</div>',
    '',
    '<details>',
    '<summary>More</summary>',
    '',
    'Inside.',
    '',
    '</details>',
    '',
    '<iframe data-node="drawio" src="https://h/d" width="300"></iframe>',
    '',
    '<video src="https://h/v.mp4"></video>',
    '',
    '<div data-node="attachmentsGroup">',
    '<a data-node="attachment" href="https://h/f">file.pdf</a>',
    '</div>',
    ''
  ].join('\n')
  const own: Record<string, string> = {
    remarkKbUnderline: 'underline',
    remarkKbMark: 'mark',
    remarkKbArticleLink: 'articleLink',
    remarkKbAnchorLink: 'anchorLink',
    remarkKbHintBlock: 'hintBlock',
    remarkKbDetails: 'details',
    remarkKbAttachments: 'attachmentsGroup',
    remarkKbDrawio: 'drawio',
    remarkKbVideo: 'video'
  }

  const pluginOf: Record<string, (this: plugins.KbProcessor) => plugins.KbTransformer> = {
    remarkKbUnderline: plugins.remarkKbUnderline,
    remarkKbMark: plugins.remarkKbMark,
    remarkKbArticleLink: plugins.remarkKbArticleLink,
    remarkKbAnchorLink: plugins.remarkKbAnchorLink,
    remarkKbHintBlock: plugins.remarkKbHintBlock,
    remarkKbDetails: plugins.remarkKbDetails,
    remarkKbAttachments: plugins.remarkKbAttachments,
    remarkKbDrawio: plugins.remarkKbDrawio,
    remarkKbVideo: plugins.remarkKbVideo,
    remarkKbImage: plugins.remarkKbImage,
    remarkKbMarkdownStyle: plugins.remarkKbMarkdownStyle
  }

  it.each(Object.entries(own))(
    '%s builds its %s and serialises a document with every construct',
    async (name, type) => {
      const plugin = pluginOf[name]!
      const processor = unified().use(remarkParse).use(plugin).use(remarkStringify)
      const tree = await processor.run(processor.parse(everything), new VFile(everything))
      const types = new Set<string>()
      visit(tree as Root, (node) => void types.add(node.type))
      expect(types.has(type)).toBe(true)
      for (const other of Object.values(own)) if (other !== type) expect(types.has(other)).toBe(false)
      const out = String(await processor.process(everything))
      // The others come back exactly as written.
      expect(out).toContain('<mark data-color="red">marked</mark>')
      expect(out).toContain('<iframe data-node="drawio" src="https://h/d" width="300"></iframe>')
      expect(out).toContain('<video src="https://h/v.mp4"></video>')
    }
  )

  it.each(Object.keys(pluginOf))('%s alone writes every tag it does not pair back exactly as written', async (name) => {
    const plugin = pluginOf[name]!
    const file = await unified().use(remarkParse).use(plugin).use(remarkStringify).process(everything)
    expect(String(file)).toBe(everything)
    expect(file.messages).toEqual([])
  })

  it('remarkKbHintBlock alone builds hint blocks whose content keeps the other constructs as written', async () => {
    const processor = unified().use(remarkParse).use(plugins.remarkKbHintBlock).use(remarkStringify)
    const input =
      '<div data-node="hintBlock" data-color="red">\n<details>\n<summary>S</summary>\n\nIn <mark data-color="red">x</mark>.\n\n</details>\n</div>\n'
    const tree = (await processor.run(processor.parse(input), new VFile(input))) as Root
    expect(types(tree).filter((type) => type !== 'root')[0]).toBe('hintBlock')
    expect(types(tree)).not.toContain('details')
    expect(String(await processor.process(input))).toBe(
      '<div data-node="hintBlock" data-color="red">\n\n<details>\n<summary>S</summary>\n\nIn <mark data-color="red">x</mark>.\n\n</details>\n\n</div>\n'
    )
  })
})
