/**
 * Text edits on the base file: replacing a source range, and the
 * continuation prefix a container's lines carry (`> `, a list item's
 * indentation).
 */

/** Replace `[start, end)` of the text with `text`. */
export interface Edit {
  start: number
  end: number
  text: string
}

/**
 * Applies edits (in any order) to a text; undefined when two of them
 * overlap, which a patch must never do.
 */
export function applyEdits(source: string, edits: readonly Edit[]): string | undefined {
  const sorted = [...edits].sort((x, y) => x.start - y.start || x.end - y.end)
  const parts: string[] = []
  let at = 0
  for (const edit of sorted) {
    if (edit.start < at) return undefined
    parts.push(source.slice(at, edit.start), edit.text)
    at = edit.end
  }
  parts.push(source.slice(at))
  return parts.join('')
}

/**
 * The prefix that continues a container's lines, from the text of a line
 * before a block's start column: block quote markers stay, list markers
 * become spaces of the same width, indentation stays.
 */
export function continuationPrefix(beforeColumn: string): string {
  let prefix = ''
  for (const character of beforeColumn) prefix += character === '>' || character === '\t' ? character : ' '
  return prefix
}

/**
 * A block's text placed in a container: every line after the first gets the
 * prefix (a blank line the prefix without trailing spaces), the first goes
 * where the replaced text started. No trailing newline.
 */
export function indentFollowing(text: string, prefix: string): string {
  if (prefix === '') return text
  const blank = prefix.trimEnd()
  return text
    .split('\n')
    .map((line, index) => (index === 0 ? line : line === '' ? blank : prefix + line))
    .join('\n')
}

/** The text of the line holding `offset`, from its start up to `offset`. */
export function lineBefore(source: string, offset: number): string {
  return source.slice(source.lastIndexOf('\n', offset - 1) + 1, offset)
}

/** Blocks written by the author's conversion, without the trailing newline (the source keeps its own). */
export function blockText(written: string): string {
  return written.replace(/\n+$/, '')
}
