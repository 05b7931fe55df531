/**
 * Helpers of the round-trip suite: words a colleague could change on the
 * platform (one per document, in a line of plain prose the file holds as
 * the platform shows it), how many lines two texts differ by, and a file's
 * front matter.
 */
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {diffPatch} from 'node-diff3'
import type {KbClient} from '../../src/api/index.js'
import {bodyOf} from './push-helpers.js'

/** A word of one document to change on the platform. */
export interface EditableWord {
  /** The document's file, relative to the pushed folder. */
  file: string
  id: string
  word: string
  /** What the web edit makes of it (found nowhere in the body or the file). */
  replacement: string
}

// A line of prose: no markup a conversion could write otherwise (links, emphasis, code, HTML, Liquid).
const prose = /^[A-Z][A-Za-z ,.;'()-]{30,}$/
const fence = /^\s*(```|~~~)/

/** How often `part` occurs in `text`. */
function count(text: string, part: string): number {
  return text.split(part).length - 1
}

/** The lines of `text` outside code fences. */
function unfencedLines(text: string): string[] {
  const lines: string[] = []
  let fenced = false
  for (const line of text.split('\n')) {
    if (fence.test(line)) fenced = !fenced
    else if (!fenced) lines.push(line)
  }
  return lines
}

// A paragraph whose every line reads so: no reference link, footnote or markup that a rewritten paragraph would write otherwise.
const plain = /^[^[\]`*_<>{}|\\^#]*$/

/** The paragraph of `lines` around `index` (up to the blank lines around it). */
function paragraphOf(lines: readonly string[], index: number): string[] {
  let start = index
  while (start > 0 && lines[start - 1]!.trim() !== '') start--
  let end = index
  while (end < lines.length - 1 && lines[end + 1]!.trim() !== '') end++
  return lines.slice(start, end + 1)
}

/** A word of `file`'s text that its platform body holds once, in a paragraph of prose, or undefined. */
function wordOf(text: string, body: string): {word: string; replacement: string} | undefined {
  const lines = unfencedLines(text)
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!
    if (!prose.test(line) || count(body, line) !== 1) continue
    const paragraph = paragraphOf(lines, index)
    if (!paragraph.every((other) => plain.test(other)) || paragraph.some((other) => /^[=-]+\s*$/.test(other))) continue
    for (const word of line.match(/\b[a-z]{6,}\b/g) ?? []) {
      const replacement = word.toUpperCase()
      if (count(body, word) === 1 && count(text, word) === 1 && !body.includes(replacement)) return {word, replacement}
    }
  }
  return undefined
}

/** One editable word per document of `ids` (file to id), in file order, at most `limit`. */
export async function editableWords(
  dir: string,
  ids: ReadonlyMap<string, string>,
  client: KbClient,
  limit = 8
): Promise<EditableWord[]> {
  const words: EditableWord[] = []
  for (const file of [...ids.keys()].sort()) {
    if (words.length >= limit) break
    const text = await readFile(path.join(dir, file), 'utf8').catch(() => undefined)
    if (text === undefined) continue
    const id = ids.get(file)!
    const found = wordOf(text, bodyOf(await client.getItem(id)))
    if (found) words.push({file, id, ...found})
  }
  return words
}

/** How many lines differ between `a` and `b` (a changed line counts once, not as a removal and an addition). */
export function changedLines(a: string, b: string): number {
  return diffPatch(a.split('\n'), b.split('\n')).reduce(
    (sum: number, hunk: {buffer1: {length: number}; buffer2: {length: number}}) =>
      sum + Math.max(hunk.buffer1.length, hunk.buffer2.length),
    0
  )
}

/** The front matter block of `text` (with its fences), or '' when it has none. */
export function frontMatterOf(text: string): string {
  const match = /^(---|\+\+\+)\r?\n[\s\S]*?\r?\n\1[ \t]*(?:\r?\n|$)/.exec(text)
  return match ? match[0] : ''
}
