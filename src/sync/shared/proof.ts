/**
 * The proof that a pulled file gives its body back: the tree push reads
 * from the file (references restored) against the remote body's tree.
 * Equal trees (positions aside) serialise to the same text, so they prove
 * it without serialising the file's tree; trees that differ may still give
 * the same canonical text (the dialect writes some differences alike),
 * which only the text can tell: then both are compared as text, as before.
 */
import type {Root} from 'mdast'
import {stringifyKb} from '../../dialect/index.js'
import {trimLineEnds} from '../../trust/index.js'

/** Whether `tree` (read back from a pulled file) gives the body whose tree is `body` and canonical text `canonical`. */
export function readsBackAs(tree: Root, body: Root, canonical: string): boolean {
  return howReadsBack(tree, body, canonical) !== undefined
}

/**
 * How `tree` gives the body back (`readsBackAs`): as the same tree (which
 * then serialises to `canonical` itself), or only as the same text once
 * line ends and trailing blanks are normalised; undefined when it does not.
 */
export function howReadsBack(tree: Root, body: Root, canonical: string): 'tree' | 'text' | undefined {
  if (sameTree(tree, body)) return 'tree'
  return sameBody(stringifyKb(tree), canonical) ? 'text' : undefined
}

/** Whether two bodies' texts are the same once line ends and trailing blanks are normalised. */
export function sameBody(a: string, b: string): boolean {
  const normal = (text: string) =>
    // Linear (trust/linear-text.ts): `/[ \t]+$/gm` costs the square of a run of blanks.
    trimLineEnds(text.replace(/\r\n?/g, '\n')).trim()
  return normal(a) === normal(b)
}

/**
 * Whether `a` and `b` are the same tree but for `position`: the same keys
 * (an own key holding undefined counts), equal primitives, arrays of equal
 * length. Iterative: a tree's depth costs no stack.
 */
export function sameTree(a: unknown, b: unknown): boolean {
  const pending: Array<[unknown, unknown]> = [[a, b]]
  while (pending.length > 0) {
    const [x, y] = pending.pop()!
    if (x === y) continue
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false
    if (Array.isArray(x) !== Array.isArray(y)) return false
    // Counted, not listed: this runs on every node of every pulled body.
    let keys = 0
    for (const key in x) {
      if (!Object.hasOwn(x, key) || key === 'position') continue
      if (!Object.hasOwn(y, key)) return false
      keys++
      pending.push([(x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key]])
    }
    for (const key in y) if (Object.hasOwn(y, key) && key !== 'position') keys--
    if (keys !== 0) return false
  }
  return true
}
