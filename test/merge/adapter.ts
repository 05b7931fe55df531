/**
 * A test adapter for the merge, built on the real dialect conversion and no
 * engine: line breaks read as LF, front matter blanked (its lines kept, so the body's positions
 * are the file's), the body converted by `gfmToKbTree`.
 */
import type {Root} from 'mdast'
import {gfmToKbTree, kbToGfm, parseKb, stringifyKb} from '../../src/dialect/index.js'
import type {MergeInput, MergeResult} from '../../src/merge/index.js'

/** The text with its front matter's lines blanked (the line count kept). */
export function blankFrontMatter(text: string): string {
  if (!/^---[ \t]*\r?\n/.test(text)) return text
  const lines = text.split('\n')
  const end = lines.findIndex((line, index) => index > 0 && /^(?:---|\.\.\.)[ \t]*\r?$/.test(line))
  if (end === -1) return text
  return lines.map((line, index) => (index <= end ? '' : line)).join('\n')
}

/** The dialect tree of a whole file, its positions the file's. */
export function treeOf(text: string): Root {
  // As the engine reads a file: CRLF line breaks read as LF (the lines keep their numbers).
  return gfmToKbTree(blankFrontMatter(text.replace(/\r\n/g, '\n'))).tree
}

/** The canonical dialect body of a whole file, as push renders it. */
export function render(text: string): string {
  return stringifyKb(treeOf(text))
}

/** The author's form of dialect blocks, as pull writes a new file. */
export function toAuthor(blocks: Root): string {
  return kbToGfm(stringifyKb(blocks)).markdown
}

/** The merge's input for a base file, the platform's body and a local file (default: base). */
export function inputOf(
  base: string,
  remoteBody: string,
  local = base,
  overrides: Partial<MergeInput> = {}
): MergeInput {
  return {
    base,
    local,
    baseTree: treeOf(base),
    remoteTree: parseKb(remoteBody),
    ownLines: () => true,
    toAuthor,
    render,
    ...overrides
  }
}

/** The platform's body for a base file with `from` replaced by `to` in its canonical body (which must hold it). */
export function remoteEdit(base: string, from: string, to: string): string {
  const body = render(base)
  if (!body.includes(from)) throw new Error(`the canonical body does not hold ${JSON.stringify(from)}:\n${body}`)
  return body.replace(from, to)
}

/** The merged text of a result (fails the test when it is not merged). */
export function merged(result: MergeResult): string {
  if (result.status !== 'merged') throw new Error(`not merged: ${JSON.stringify(result)}`)
  return result.text
}

/** The lines of `after` not in `before`, and of `before` not in `after`. */
export function difference(before: string, after: string): {gone: string[]; added: string[]} {
  const [a, b] = [before.split('\n'), after.split('\n')]
  return {gone: a.filter((line) => !b.includes(line)), added: b.filter((line) => !a.includes(line))}
}
