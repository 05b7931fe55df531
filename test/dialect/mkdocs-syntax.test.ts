/**
 * MkDocs syntax one construct at a time, through `gfmToKb` (the forms side
 * by side are fixtures: `fixtures/convert/gfm-to-kb-mkdocs-*`): attribute
 * lists read precisely (prose in braces stays), emoji and icon shortcodes
 * (one counted warning per document), mkdocstrings blocks, and hostile
 * input that must cost linear time.
 */
import {describe, expect, it} from 'vitest'
import {gfmToKb} from '../../src/dialect/index.js'
import {readAttrList, trailingAttrList} from '../../src/dialect/gfm-to-kb/site-syntax/mkdocs/attr-list-syntax.js'

const convert = (markdown: string) => gfmToKb(markdown, {path: 'doc.md'})

describe('attribute list syntax', () => {
  it('reads ids, classes and pairs, kramdown and Python-Markdown forms', () => {
    expect(readAttrList('{: #id .a .b key="v w" n=3 flag }', 0)).toMatchObject({
      colon: true,
      id: 'id',
      classes: ['a', 'b'],
      attributes: {key: 'v w', n: '3'}
    })
    expect(readAttrList('{#v4.4.1}', 0)).toMatchObject({id: 'v4.4.1'})
    expect(trailingAttrList('Title { .lg .middle }  ')).toMatchObject({start: 6, classes: ['lg', 'middle']})
  })

  it('reads no attribute list in prose braces', () => {
    for (const text of [
      '{placeholder}',
      '{x, y}',
      '{"a": 1}',
      '{}',
      '{ }',
      '{#}',
      '{.5}',
      '{key=}',
      '{a b}',
      '{#a,}',
      "{k='x}"
    ])
      expect(readAttrList(text, 0), text).toBeUndefined()
  })
})

describe('attribute lists in documents', () => {
  it('make ids anchors and leave nothing of the braces', () => {
    const {markdown} = convert('Intro **term**{ #term } and ![a](a.png){ width=120 }\n')
    expect(markdown).toBe(
      'Intro <a data-node="anchorLink" data-id="term" />**term** and <img src="a.png" alt="a" width="120">\n'
    )
  })

  it('keep a list written inside a line of text, as Python-Markdown does', () => {
    expect(convert('Text {#x} more\n').markdown).toBe('Text {#x} more\n')
  })
})

describe('emoji and icon shortcodes', () => {
  it('become emoji; icons without one go with ONE counted warning', () => {
    const {markdown, messages} = convert(':tada: :material-check: :simple-github: :fontawesome-brands-x: ok\n')
    expect(markdown).toBe('🎉 ✔️ ok\n')
    const icons = messages.filter((message) => message.ruleId === 'kb-icon-dropped')
    expect(icons).toHaveLength(1)
    expect(icons[0]!.reason).toMatch(/^2 icons .*`:simple-github:`/)
    expect(icons[0]!.column).toBe(25)
  })

  it('leave times, paths and unknown names alone', () => {
    const text = '10:30:45 std::vec::Vec a:b :unknown-name: x:smile: :smile:x\n'
    expect(convert(text).markdown).toBe(text)
  })
})

describe('hostile input', () => {
  it('long lines of braces, colons and shortcode-like text cost linear time', () => {
    const lines = [
      '{' + ' .a'.repeat(50000),
      ('{: #a ' + 'k=v'.repeat(10)).repeat(5000),
      ':a'.repeat(100000),
      ':' + 'a'.repeat(200000),
      '**x**' + '{ .a'.repeat(20000),
      '::: ' + 'a.'.repeat(50000)
    ]
    const started = Date.now()
    for (const line of lines) convert(`Para\n${line}\n`)
    expect(Date.now() - started).toBeLessThan(5000)
  })
})
