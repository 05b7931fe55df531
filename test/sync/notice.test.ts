/**
 * The notice's one function for both sides (issue 33): what push adds at
 * the top of a body, pull takes off exactly, and nothing else.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {parseKb, stringifyKb} from '../../src/dialect/index.js'
import {noticeBlock, noticeSettings, withoutNotice} from '../../src/sync/shared/notice.js'

const word = fc.stringMatching(/^[a-z]{1,8}$/)
const block = fc.oneof(
  fc.array(word, {minLength: 1, maxLength: 6}).map((words) => words.join(' ')),
  word.map((w) => `## ${w}`),
  fc.array(word, {minLength: 1, maxLength: 3}).map((items) => items.map((item) => `- ${item}`).join('\n')),
  word.map((w) => `<div data-node="hintBlock" data-color="blue">\n\n${w}\n\n</div>`)
)
const body = fc.array(block, {minLength: 1, maxLength: 5}).map((blocks) => stringifyKb(parseKb(blocks.join('\n\n'))))
const settings = fc.oneof(
  fc.constant(noticeSettings(true, undefined, '')!),
  fc.constant(noticeSettings(true, 'https://github.com/o/r/blob/main/', 'docs')!),
  word.map((text) => noticeSettings(`Made from git: ${text}`, undefined, '')!)
)

describe('the notice', () => {
  it('is taken off exactly: a body with the notice added comes back as it was (law)', () => {
    fc.assert(
      fc.property(body, settings, word, (text, notice, file) => {
        const tree = parseKb(text)
        const published = stringifyKb({...tree, children: [noticeBlock(notice, `${file}.md`), ...tree.children]})
        expect(withoutNotice(published)).toBe(text)
      })
    )
  })

  it('leaves a body without it as it is, a hint block of the author included (law)', () => {
    fc.assert(
      fc.property(body, (text) => {
        expect(withoutNotice(text)).toBe(text)
      })
    )
  })

  it('links to the file in the repository when repoUrl is set', () => {
    const notice = noticeSettings(true, 'https://github.com/o/r/blob/main/', 'docs')!
    const text = stringifyKb({type: 'root', children: [noticeBlock(notice, 'guides/a b.md')]})
    expect(text).toContain('(https://github.com/o/r/blob/main/docs/guides/a%20b.md)')
    expect(text).toContain('This page is published from git; edit it there.')
    expect(withoutNotice(text)).toBe('')
  })
})
