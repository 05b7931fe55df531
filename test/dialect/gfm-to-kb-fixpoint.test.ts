/**
 * `gfmToKb` output is a fixpoint of `gfmToKb`: converting a converted body
 * again changes nothing (issue 17: `<a href="https://x.org">d</a>` used to
 * convert twice into a broken link). Inputs mix Markdown with the HTML real
 * documentation trees carry. Also: no foreign tag reaches the output as
 * text, and the defects found on real files stay fixed.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {gfmToKb, parseKb} from '../../src/dialect/index.js'

const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,7}$/)
const words = fc.array(word, {minLength: 1, maxLength: 4}).map((w) => w.join(' '))
const inline = fc.oneof(
  words,
  words.map((w) => `**${w}**`),
  words.map((w) => `*${w}*`),
  words.map((w) => `\`${w}\``),
  words.map((w) => `[${w}](https://example.com/${w.replace(/ /g, '-')})`),
  words.map((w) => `<a href="https://x.org/${w.replace(/ /g, '-')}">${w}</a>`),
  word.map((w) => `<a id="${w}"></a>`),
  words.map((w) => `<b>${w}</b>`),
  words.map((w) => `<em>${w}</em>`),
  words.map((w) => `<s>${w}</s>`),
  words.map((w) => `<u>${w}</u>`),
  words.map((w) => `<kbd>${w}</kbd>`),
  words.map((w) => `<code>${w}</code>`),
  words.map((w) => `<span class="x">${w}</span>`),
  words.map((w) => `<sup>${w}</sup>`),
  words.map((w) => `<mark>${w}</mark>`),
  words.map((w) => `<mark data-color=red>${w}</mark>`),
  words.map((w) => `<Badge>${w}</Badge>`),
  fc
    .tuple(word, fc.integer({min: 1, max: 900}))
    .map(([w, width]) => `<img src="img/${w}.png" alt="${w}" width="${width}">`),
  word.map((w) => `<img src="https://x.org/${w}.png" style="width: 40px">`),
  fc.constant('<br>'),
  words.map((w) => `<!-- ${w} -->`)
)
const paragraph = fc.array(inline, {minLength: 1, maxLength: 4}).map((parts) => parts.join(' '))
const block = fc.oneof(
  paragraph,
  fc.tuple(fc.integer({min: 1, max: 6}), words).map(([depth, text]) => `${'#'.repeat(depth)} ${text}`),
  fc.tuple(fc.integer({min: 1, max: 6}), words).map(([depth, text]) => `<h${depth}>${text}</h${depth}>`),
  paragraph.map((text) => `<p align="center">${text}</p>`),
  fc
    .tuple(fc.constantFrom('note', 'note warning', 'note info', 'tip', 'box'), paragraph)
    .map(([kind, text]) => `<div class="${kind}">\n\n${text}\n\n</div>`),
  fc
    .tuple(fc.constantFrom('Note', 'Tip', 'Warning', 'Info', 'Check', 'Tabs'), paragraph)
    .map(([name, text]) => `<${name}>\n${text}\n</${name}>`),
  fc
    .tuple(words, paragraph)
    .map(([summary, text]) => `<details>\n<summary>${summary}</summary>\n\n${text}\n\n</details>`),
  fc
    .tuple(words, words)
    .map(
      ([a, b]) =>
        `<table>\n<tr><th>${a}</th><th>${b}</th></tr>\n<tr><td>${b}<br>${a}</td><td><b>${a}</b></td></tr>\n</table>`
    ),
  fc
    .array(words, {minLength: 1, maxLength: 3})
    .map((items) => `<ul>\n${items.map((item) => `  <li>${item}</li>`).join('\n')}\n</ul>`),
  fc
    .array(fc.tuple(fc.constantFrom('- ', '1. '), paragraph), {minLength: 1, maxLength: 3})
    .map((items) => items.map(([marker, text]) => marker + text).join('\n')),
  fc.tuple(words, words).map(([a, b]) => `| ${a} | ${b} |\n| --- | --- |\n| ${b}<br>${a} | <kbd>${a}</kbd> |`),
  fc.constantFrom(
    '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>',
    '<iframe src="https://codesandbox.io/embed/x" title="Example"></iframe>',
    '<video src="https://x.org/a.mp4"></video>',
    '<script>alert(1)</script>',
    '<hr>',
    '<!-- a comment -->'
  ),
  words.map((w) => '```js\n' + w + '\n```'),
  paragraph.map((text) => `> ${text}`)
)
const document = fc.array(block, {minLength: 1, maxLength: 6}).map((blocks) => blocks.join('\n\n') + '\n')

/** Tags of the dialect; any other tag in the output outside code would be shown to readers as text. */
const dialectTag =
  /^<\/?(?:u|mark|details|summary|video|img|iframe data-node|div data-node|a data-node)\b|^<\/(?:iframe|div|a)>/

/** The tags written in `markdown` outside code, escaped ones excluded. */
function tagsOutsideCode(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '')
  return [...text.matchAll(/(?<!\\)<\/?[A-Za-z][A-Za-z0-9-]*(?=[\s/>])[^>\n]*>?/g)].map((match) => match[0])
}

describe('gfmToKb fixpoint', () => {
  it('converts `<a href>` once and for all (issue 17 example)', () => {
    const once = gfmToKb('<a href="https://x.org">d</a>\n').markdown
    expect(once).toBe('[d](https://x.org)\n')
    expect(gfmToKb(once).markdown).toBe(once)
  })

  it('leaves no empty paragraph where a comment and a lone <br> were (a counterexample the law below found)', () => {
    const once = gfmToKb('<br> <!-- a -->\n\n> <em>A</em>\n').markdown
    expect(once).toBe('> *A*\n')
    expect(gfmToKb(once).markdown).toBe(once)
  })

  it('its output converts to itself, for Markdown mixed with HTML', () => {
    fc.assert(
      fc.property(document, (source) => {
        const once = gfmToKb(source).markdown
        expect(gfmToKb(once).markdown).toBe(once)
      }),
      {numRuns: 150}
    )
  })

  it('lets no foreign tag through as text', () => {
    fc.assert(
      fc.property(document, (source) => {
        const {markdown} = gfmToKb(source)
        for (const tag of tagsOutsideCode(markdown)) expect(tag).toMatch(dialectTag)
      }),
      {numRuns: 150}
    )
  })
})

describe('defects found on real files', () => {
  it('the tags of an unclosed details keep their lines', () => {
    const tree = parseKb('Intro.\n\n<details>\n<summary>Attributes</summary>\n\n- a\n')
    const summaryTags = tree.children.filter((node) => node.type === 'html' && /summary/.test(node.value))
    expect(summaryTags).toHaveLength(2)
    for (const tag of summaryTags) expect(tag.position?.start.line).toBe(4)
    for (const message of gfmToKb('<details>\n<summary>Open</summary>\n\nnever closed\n').messages)
      expect(message.line).toBeTypeOf('number')
  })

  it('the first of duplicate link definitions wins, as in CommonMark', () => {
    expect(gfmToKb('[a][x]\n\n[x]: https://first.example\n[x]: https://second.example\n').markdown).toBe(
      '[a](https://first.example)\n'
    )
  })
})

describe('cases the law found', () => {
  it('comments that end a block leave no space behind', () => {
    const once = gfmToKb(
      '- <mark data-color=red>A</mark> <!-- A --> <!-- a -->\n\n<mark data-color=red>A</mark>\n'
    ).markdown
    expect(once).toBe('- <mark data-color="red">A</mark>\n\n<mark data-color="red">A</mark>\n')
    expect(gfmToKb(once).markdown).toBe(once)
  })
})

describe('HTML that would exhaust the converters', () => {
  it('keeps deeply nested or numerous tags as text, reported, instead of overflowing the stack', () => {
    for (const source of [
      'a ' + '<span>'.repeat(5000) + 'x',
      '<b>a '.repeat(5000),
      '<div>\n' + '<div>'.repeat(3000) + '\nx\n',
      '<Note>\n'.repeat(3000)
    ]) {
      const {messages} = gfmToKb(source)
      expect(messages.map((message) => message.ruleId)).toContain('kb-html-too-large')
    }
  })

  it('converts a run of thousands of empty links without slowing down', () => {
    const started = performance.now()
    gfmToKb('<a href="x">'.repeat(3000))
    expect(performance.now() - started).toBeLessThan(10_000)
  })
})
