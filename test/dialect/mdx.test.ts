/**
 * MDX through the MDX parser: expressions read from their syntax tree and
 * never run, components by their meaning, the lenient reading of a body
 * that is not MDX, the author's line numbers.
 */
import fc from 'fast-check'
import {afterEach, describe, expect, it} from 'vitest'
import {gfmToKb} from '../../src/dialect/index.js'

const mdx = (source: string) => gfmToKb(source, {path: 'page.mdx'})
const rules = (source: string) => mdx(source).messages.map((message) => message.ruleId)

/** The text of `markdown` outside fenced code. */
function outsideCode(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '')
}

declare global {
  var kbsyncRan: number | undefined
}

describe('expressions are read, never run', () => {
  afterEach(() => {
    delete globalThis.kbsyncRan
  })

  const sideEffects = [
    'globalThis.kbsyncRan = 1',
    '(() => { globalThis.kbsyncRan = 1 })()',
    '({get a() { globalThis.kbsyncRan = 1; return "a" }}).a',
    '[1].map(() => (globalThis.kbsyncRan = 1))',
    '`${(globalThis.kbsyncRan = 1)}`',
    'new Function("globalThis.kbsyncRan = 1")()',
    'eval("globalThis.kbsyncRan = 1")',
    '{...{get b() { globalThis.kbsyncRan = 1; return 1 }}}'
  ]
  const expression = fc.constantFrom(...sideEffects)
  const place = fc.constantFrom(
    (code: string) => `Text {${code}} here.`,
    (code: string) => `{${code}}`,
    (code: string) => `<Card title={${code}}>\n  Body.\n</Card>`,
    (code: string) => `<Foo\n  config={[\n    ${code},\n  ]}\n/>`,
    (code: string) => `<Tabs values={${code}}>\n<TabItem value="a">A</TabItem>\n</Tabs>`
  )

  it('never runs a side effect, wherever the expression stands (law)', () => {
    fc.assert(
      fc.property(expression, place, (code, at) => {
        const {messages} = mdx(at(code))
        expect(globalThis.kbsyncRan).toBeUndefined()
        // What could not be read is said, once.
        expect(messages.filter((message) => message.ruleId === 'kb-mdx-expression').length).toBeLessThanOrEqual(1)
      })
    )
  })

  const literal = fc.oneof(
    fc.string({maxLength: 8}).map((text) => JSON.stringify(text)),
    fc.integer().map(String),
    fc.boolean().map(String),
    fc.constant('null'),
    fc.constant('`template`'),
    fc.constant('{ borderRadius: "12px" }'),
    fc.constant('[\n    { name: "a", enabled: true },\n    { name: "b" },\n  ]')
  )
  const props = fc.array(fc.tuple(fc.constantFrom('title', 'style', 'config', 'values', 'x'), literal), {
    minLength: 1,
    maxLength: 3
  })

  it('leaves no `={` of a component in the output (law)', () => {
    fc.assert(
      fc.property(fc.constantFrom('Card', 'Foo', 'div', 'Aside', 'LinkCard'), props, (name, attributes) => {
        const written = attributes.map(([key, value]) => `${key}={${value}}`).join('\n  ')
        const {markdown} = mdx(`# Page\n\n<${name}\n  ${written}\n>\n  Body text.\n</${name}>\n`)
        expect(outsideCode(markdown)).not.toContain('={')
        expect(markdown).toContain('Body text.')
      })
    )
  })

  it('shows literal text expressions and drops comments silently', () => {
    const {markdown, messages} = mdx(`A {'b'}{' '}c {1} {/* note */}d.\n`)
    expect(markdown).toBe('A b c 1 d.\n')
    expect(messages).toEqual([])
  })

  it('counts what it drops in one warning that names the first', () => {
    const {messages} = mdx(`A {x} and {y()}.\n\n<Card title="T" onClick={go}>B</Card>\n`)
    const warnings = messages.filter((message) => message.ruleId === 'kb-mdx-expression')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.line).toBe(1)
    expect(warnings[0]!.reason).toMatch(/^3 MDX expressions left out, the first here \(`\{x\}`\)/)
  })
})

describe('components', () => {
  it('keeps a link card whole: title, link and description (was: the title only)', () => {
    const source = '<LinkCard title="Plugin" href="https://example.com/p" description="Does things." />\n'
    const expected = '[**Plugin**](https://example.com/p) — Does things.\n'
    expect(mdx(source).markdown).toBe(expected)
    expect(gfmToKb(source, {path: 'page.md'}).markdown).toBe(expected)
  })

  it('warns once per unknown component, naming its props', () => {
    const {messages} = mdx('<Foo bar="1" />\n\n<Foo baz />\n\n<Bar>x</Bar>\n')
    const unwrapped = messages.filter((message) => message.ruleId === 'kb-html-unwrapped')
    expect(unwrapped.map((message) => message.line)).toEqual([1, 5])
    expect(unwrapped[0]!.reason).toContain('(2 places, the first here)')
    expect(unwrapped[0]!.reason).toContain('its props `bar`, `baz` are not shown')
  })

  it('keeps the text around an empty component', () => {
    expect(mdx('New <Badge text="beta" /> feature, <Icon name="star" /> starred.\n').markdown).toBe(
      'New beta feature,  starred.\n'
    )
  })
})

describe('not valid MDX', () => {
  it('is read leniently, with one warning naming the line and MDX’s reason', () => {
    const {markdown, messages} = mdx('# Title\n\n:::tip\nA tip.\n:::\n\nWhen a < b the page {stays.\n')
    expect(markdown).toContain('When a < b the page {stays.')
    const invalid = messages.filter((message) => message.ruleId === 'kb-mdx-invalid')
    expect(invalid).toHaveLength(1)
    expect(invalid[0]!.line).toBe(7)
    expect(invalid[0]!.reason).toMatch(/^Not valid MDX \(line 7: .+\)/)
  })
})

describe('lines', () => {
  it('are the author’s after the container pre-pass added lines', () => {
    const source = ':::tip\nA tip.\n:::\n\n<Foo a="1">x</Foo>\n\nThe year {new Date().getFullYear()}.\n'
    const messages = mdx(source).messages.map((message) => [message.ruleId, message.line])
    expect(messages).toEqual([
      ['kb-html-unwrapped', 5],
      ['kb-mdx-expression', 7]
    ])
  })
})

describe('mdx-code-block', () => {
  it('reads the fences’ content as MDX in a Markdown file (was: code holding `<Tabs>`)', () => {
    const source = [
      '```mdx-code-block',
      "import Tabs from '@theme/Tabs';",
      '',
      '<Tabs>',
      '<TabItem value="npm" label="npm">',
      '```',
      '',
      '```bash',
      'npm i',
      '```',
      '',
      '```mdx-code-block',
      '</TabItem>',
      '</Tabs>',
      '```',
      ''
    ].join('\n')
    const {markdown, messages} = gfmToKb(source, {path: 'install.md'})
    expect(markdown).toBe('**npm**\n\n```bash\nnpm i\n```\n')
    expect(messages).toEqual([])
  })

  it('leaves a body without an `.mdx` path or fence on the Markdown path', () => {
    expect(rules('x')).toEqual([])
    expect(gfmToKb('a < b {c\n', {path: 'a.md'}).messages).toEqual([])
  })
})

describe('literal values (read from the syntax tree)', () => {
  const dropped = (source: string) => mdx(source).messages.filter((message) => message.ruleId === 'kb-mdx-expression')

  it('shows what React renders of a text expression: strings, numbers, arrays of them; nothing for true, false, null', () => {
    const {markdown, messages} = mdx('Items {["a", 1, true, null]} {-3} {`t`} end.\n\nBool {false}{null}{true} end.\n')
    expect(markdown).toBe('Items a1 -3 t end.\n\nBool  end.\n')
    expect(messages).toEqual([])
  })

  it('counts every expression with no text to show: objects, nested arrays, code, and literals that are not data', () => {
    const source = [
      'Obj {{a: 1}}, nested {[["x"]]}, in an array {[{a: 1}]}, signs {-"x"} {!1}.',
      '',
      'Regex {/r/}, bigint {10n}, name {name}, holes {[1,,2]}, spread {[...a]}, template {`a${b}`}.'
    ].join('\n')
    const {markdown} = mdx(source + '\n')
    expect(markdown).toBe(
      'Obj , nested , in an array , signs  .\n\nRegex , bigint , name , holes , spread , template .\n'
    )
    const warnings = dropped(source)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.reason).toMatch(/^11 MDX expressions left out, the first here \(`\{\{a: 1\}\}`\)/)
  })

  it('reads a component’s literal props as HTML attributes (a string, a number, a template, an imported image)', () => {
    const source = [
      'import logo from "./logo.png"',
      'import {icon} from "./icon.png"',
      'import data from "./data.json"',
      '',
      '<img src={logo} alt={`Logo`} /> <img src={icon} alt="named" /> <img src={data} alt="json" />',
      '',
      '<a href={"https://example.com"} title={1}>link</a> and <mark data-color={"red"}>hi</mark>'
    ].join('\n')
    const {markdown, messages} = mdx(source + '\n')
    // Only a default import of a media file stands for its path: a named import and a JSON module are code.
    expect(markdown).toBe(
      '![Logo](./logo.png)\n\n[link](https://example.com "1") and <mark data-color="red">hi</mark>\n'
    )
    expect(messages.find((message) => message.ruleId === 'kb-mdx-expression')?.reason).toMatch(
      /^2 MDX expressions left out, the first here \(the prop `src` of `<img>`\)/
    )
  })

  it('reads objects only when every key and value is a literal', () => {
    const props = [
      'a={{"k": "v", 2: 3, [4]: 5}}',
      'b={{[k]: 1}}',
      'c={{[1n]: 1}}',
      'd={{[true]: 1}}',
      'e={{get a() { return 1 }}}',
      'f={{m() {}}}',
      'g={{...o}}',
      'h={{a: x}}'
    ]
    const warnings = dropped(`<div ${props.join(' ')}>T</div>\n`)
    // `a` is data; every other object holds code or a key that is not a literal.
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.reason).toMatch(/^7 MDX expressions left out, the first here \(the prop `b` of `<div>`\)/)
  })

  it('gives an element the content of a literal `set:html`, `set:text` (escaped) or `dangerouslySetInnerHTML`', () => {
    const source = [
      '<div set:html={"<b>bold</b>"} />',
      '<span set:text={"a & <b>"} />',
      '<div dangerouslySetInnerHTML={{__html: "<i>it</i>"}} />',
      '<p set:html="<u>u</u>" />'
    ].join(' ')
    const {markdown, messages} = mdx(source + '\n')
    expect(markdown).toBe('**bold**\n\na & \\<b>\n\n*it*\n\n<u>u</u>\n')
    expect(messages).toEqual([])
  })

  it('names the content it cannot read: not a literal, not a string, not an `{__html}` object', () => {
    const source =
      '<div dangerouslySetInnerHTML={{__html: x}} /> <p set:html={[1]} /> <div dangerouslySetInnerHTML={["a"]} />'
    const warnings = dropped(source + '\n')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.reason).toMatch(
      /^3 MDX expressions left out, the first here \(the content `dangerouslySetInnerHTML` gives `<div>`\)/
    )
  })

  it('drops a comment in a component’s props silently and names a spread', () => {
    const {markdown, messages} = mdx('<Card {/* note */} title="T" {...rest}>Body</Card>\n')
    expect(markdown).toBe('**T**\n\nBody\n')
    expect(messages.map((message) => message.reason)).toEqual([
      expect.stringMatching(/^1 MDX expression left out, .*the props `\{\.\.\.rest\}` of `<Card>`/)
    ])
  })
})
