/**
 * Laws of a tight list edited on the platform: an item deleted, or two
 * items swapped, changes the item lines the edit moved and nothing else
 * (markers, the blank lines around the list and the other items stay
 * the author's).
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {mergeDocument} from '../../src/merge/index.js'
import {inputOf, render} from './adapter.js'

const word = fc.stringMatching(/^[a-z]{3,8}$/)
const item = fc.array(word, {minLength: 1, maxLength: 4}).map((words) => words.join(' '))
const list = fc.uniqueArray(item, {minLength: 2, maxLength: 6})
const marker = fc.constantFrom('*', '-', '+')

/** A file holding a tight list between two paragraphs, its item lines from `first`. */
function fileOf(items: readonly string[], mark: string): {text: string; first: number} {
  const lines = ['Before the list.', '', ...items.map((text) => `${mark} ${text}`), '', 'After the list.', '']
  return {text: lines.join('\n'), first: 2}
}

/** The platform's body with the list's items re-ordered as `order` says (indices into the items; fewer to delete). */
function remoteWith(text: string, items: readonly string[], order: readonly number[]): string {
  const body = render(text)
  const written = items.map((item) => `- ${item}\n`).join('')
  if (!body.includes(written)) throw new Error(`the body does not hold the list:\n${body}`)
  return body.replace(written, order.map((index) => `- ${items[index]}\n`).join(''))
}

describe('mergeDocument laws: a tight list edited on the platform', () => {
  it('an item deleted takes its line and nothing else', () => {
    fc.assert(
      fc.property(list, marker, fc.nat(), (items, mark, pick) => {
        const {text, first} = fileOf(items, mark)
        const gone = pick % items.length
        const order = items.map((_, index) => index).filter((index) => index !== gone)
        const result = mergeDocument(inputOf(text, remoteWith(text, items, order)))
        const lines = text.split('\n')
        lines.splice(first + gone, 1)
        expect(result).toMatchObject({status: 'merged', text: lines.join('\n')})
      }),
      {numRuns: 60}
    )
  })

  it('two neighbouring items swapped move their lines, the others unchanged', () => {
    fc.assert(
      fc.property(list, marker, fc.nat(), (items, mark, pick) => {
        const {text, first} = fileOf(items, mark)
        const at = pick % (items.length - 1)
        const order = items.map((_, index) => (index === at ? at + 1 : index === at + 1 ? at : index))
        const result = mergeDocument(inputOf(text, remoteWith(text, items, order)))
        const lines = text.split('\n')
        ;[lines[first + at], lines[first + at + 1]] = [lines[first + at + 1]!, lines[first + at]!]
        expect(result).toMatchObject({status: 'merged', text: lines.join('\n')})
      }),
      {numRuns: 60}
    )
  })
})
