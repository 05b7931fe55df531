/**
 * micromark's edits are applied from the first edit on (issue 32: a long
 * article of lists and quotes parsed in time quadratic in its size, each
 * container exit copying every event before it): the events before the
 * first edit are not read, and every parse gives the tree micromark's own
 * `consume` gives.
 */
import fc from 'fast-check'
import {EditMap} from 'micromark-util-edit-map'
import type {Event} from 'micromark-util-types'
import {describe, expect, it} from 'vitest'
import {gfmToKb, parseKb} from '../../src/dialect/index.js'
import {linearEditMaps} from '../../src/dialect/linear-edit-map.js'

// Taken before any parse of this file's module graph installs the linear one.
const micromarkConsume = EditMap.prototype.consume
linearEditMaps()
const linearConsume = EditMap.prototype.consume

/** A stand-in event: only its identity matters to an edit map. */
const eventOf = (n: number): Event => ['enter', {type: 'data', start: point(n), end: point(n)}, {} as Event[2]]
const point = (offset: number) => ({line: 1, column: offset + 1, offset, _index: 0, _bufferIndex: -1})

/** `events` as an array that counts the reads of its elements. */
function counted(events: Event[]): {events: Event[]; reads(): number} {
  let reads = 0
  const proxy = new Proxy(events, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++
      return Reflect.get(target, key, receiver) as unknown
    }
  })
  return {events: proxy, reads: () => reads}
}

const block = fc.constantFrom(
  '- one\n- two\n  - nested\n',
  '1. first\n2. second\n',
  '> quoted\n> more\n',
  '> - quoted item\n',
  'Plain text with **strong** and `code`.\n',
  '| a | b |\n| --- | --- |\n| 1 | 2 |\n',
  '```js\nconst a = 1\n```\n',
  '- lazy\ncontinuation\n',
  '# Heading\n',
  'Setext\n---\n'
)
const documents = fc.array(block, {minLength: 1, maxLength: 30}).map((blocks) => blocks.join('\n'))

describe('linear edit maps', () => {
  it('reads only the events from the first edit on', () => {
    expect(linearConsume).not.toBe(micromarkConsume)
    const all = Array.from({length: 10_000}, (_, n) => eventOf(n))
    const {events, reads} = counted(all)
    const map = new EditMap()
    map.add(9_990, 2, [eventOf(-1)])
    map.add(9_995, 0, [eventOf(-2)])
    map.consume(events)
    expect(reads()).toBeLessThan(100)
    expect(all.length).toBe(10_000)
    expect(all[9_990]).toEqual(eventOf(-1))
    expect(all[9_994]).toEqual(eventOf(-2))
    expect(all[9_995]).toEqual(eventOf(9_995))
  })

  it('applies any edits as micromark does', () => {
    const edit = fc.tuple(fc.nat(40), fc.nat(3), fc.array(fc.integer({min: -99, max: -1}), {maxLength: 3}))
    fc.assert(
      fc.property(fc.array(edit, {maxLength: 6}), (edits) => {
        const apply = (consume: EditMap['consume']) => {
          const events = Array.from({length: 40}, (_, n) => eventOf(n))
          const map = new EditMap()
          for (const [at, remove, add] of edits) map.add(at, remove, add.map(eventOf))
          consume.call(map, events)
          return events.map((event) => event[1].start.offset)
        }
        expect(apply(linearConsume)).toEqual(apply(micromarkConsume))
      })
    )
  })

  it('parses every document to the tree micromark parses', () => {
    fc.assert(
      fc.property(documents, (source) => {
        EditMap.prototype.consume = micromarkConsume
        const before = [JSON.stringify(parseKb(source)), gfmToKb(source)]
        EditMap.prototype.consume = linearConsume
        expect([JSON.stringify(parseKb(source)), gfmToKb(source)]).toEqual(before)
      }),
      {numRuns: 200}
    )
  })
})
