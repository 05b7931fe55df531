/**
 * The law of issue 31: for random documents in the docs-site syntaxes
 * kbsync reads and a random block edit on the platform, the merged file
 * renders to exactly the edited remote body, and every block the edit did
 * not touch is byte-identical to before.
 */
import fc from 'fast-check'
import type {Nodes, Root, RootContent} from 'mdast'
import {describe, expect, it} from 'vitest'
import {parseKb, stringifyKb} from '../../src/dialect/index.js'
import {mergeDocument} from '../../src/merge/index.js'
import {inputOf, render, treeOf} from './adapter.js'
import {block, document} from './documents.js'

/** A platform-side edit of a document's top-level block `at` (for an insertion: the place). */
type Edit =
  {kind: 'word'; at: number; pick: number} | {kind: 'insert'; at: number; block: string} | {kind: 'delete'; at: number}

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({kind: fc.constant('word' as const), at: fc.nat(), pick: fc.nat()}),
  fc.record({kind: fc.constant('word' as const), at: fc.nat(), pick: fc.nat()}),
  fc.record({kind: fc.constant('insert' as const), at: fc.nat(), block: block.map((make) => make(1))}),
  fc.record({kind: fc.constant('delete' as const), at: fc.nat()})
)

/** The nodes holding words inside a block (text and code values), in document order. */
function wordNodes(root: Nodes): Array<{value: string}> {
  const found: Array<{value: string}> = []
  const stack: Nodes[] = [root]
  for (let node = stack.pop(); node; node = stack.pop()) {
    if ((node.type === 'text' || node.type === 'code') && /[a-z]{3}/.test(node.value)) found.push(node)
    if ('children' in node) stack.push(...[...(node.children as Nodes[])].reverse())
  }
  return found
}

/** Applies an edit to the platform's tree; the index of the base block it touched (none for an insertion). */
function applyEdit(tree: Root, change: Edit): number | undefined {
  const count = tree.children.length
  if (change.kind === 'insert') {
    const inserted = treeOf(change.block).children[0] as RootContent
    tree.children.splice(change.at % (count + 1), 0, inserted)
    return undefined
  }
  const at = change.at % count
  if (change.kind === 'delete') {
    tree.children.splice(at, 1)
    return at
  }
  const nodes = wordNodes(tree.children[at]!)
  const node = nodes[change.pick % nodes.length]!
  node.value = node.value.replace(/[a-z]{3,}/, 'zulu')
  return at
}

/** Whether `pieces` appear in `text` in order, each byte for byte. */
function inOrder(text: string, pieces: readonly string[]): boolean {
  let from = 0
  for (const piece of pieces) {
    const at = text.indexOf(piece, from)
    if (at === -1) return false
    from = at + piece.length
  }
  return true
}

describe('mergeDocument: the round trip law', () => {
  it('gives the edited remote body back and keeps every block the platform did not touch', () => {
    let cases = 0
    let unmergeable = 0
    fc.assert(
      fc.property(document, edit, (doc, change) => {
        const body = render(doc.text)
        const tree = parseKb(body)
        // Each generated block is one top-level block: the edit's index is the document's.
        expect(tree.children).toHaveLength(doc.blocks.length)
        const touched = applyEdit(tree, change)
        const remoteBody = stringifyKb(tree)
        const wanted = stringifyKb(parseKb(remoteBody))
        cases++
        const result = mergeDocument(inputOf(doc.text, remoteBody))
        if (result.status === 'unmergeable') {
          unmergeable++
          return
        }
        expect(result.status).toBe('merged')
        if (result.status !== 'merged') return
        expect(render(result.text)).toBe(wanted)
        expect(result.text.startsWith(doc.frontMatter.trimEnd())).toBe(true)
        const kept = doc.blocks.filter((_, index) => index !== touched)
        expect(inOrder(result.text, kept), `blocks kept in:\n${result.text}`).toBe(true)
      }),
      {numRuns: 100}
    )
    // A patch the proof rejects is refused, never written: the law is then "never a wrong merge". Such cases come
    // from a platform edit the author's syntax cannot say without touching an unchanged block: the paragraph between
    // two lists of the same marker deleted (they would read as one list), a third ordered list inserted between a
    // `1.` and a `1)` one. They must stay a small minority (2 to 5 in 1000 runs when this was written).
    expect(unmergeable).toBeLessThanOrEqual(Math.ceil(cases / 10))
  })
})

describe('mergeDocument: the laws of a three-way merge', () => {
  it('gives the local file back, byte for byte, when the platform kept the body (merge(b, l, b) = l)', () => {
    fc.assert(
      fc.property(document, block, fc.nat(), (doc, added, at) => {
        const lines = doc.text.split('\n')
        const place =
          doc.frontMatter.split('\n').length + (at % (lines.length - doc.frontMatter.split('\n').length + 1))
        const local = [...lines.slice(0, place), '', added(1), '', ...lines.slice(place)].join('\n')
        expect(mergeDocument(inputOf(doc.text, render(doc.text), local))).toEqual({
          status: 'merged',
          text: local,
          remoteBlocks: 0
        })
      }),
      {numRuns: 50}
    )
  })
})
