/**
 * Code given between two template tags (Hugo `{{< highlight go >}}…{{<
 * /highlight >}}`, a Docsy code tab, Liquid `{% highlight ruby %}…{%
 * endhighlight %}`): the lines up to the closing tag, as written, made a
 * fenced code block. The content is code, so nothing in it is converted.
 */

/** Code taken from the lines: its text, the line index of the closing tag, and what follows the tag there. */
export interface CapturedCode {
  code: string[]
  /** Index of the line holding the closing tag (the last line when there is none). */
  endLine: number
  /** The rest of that line after the closing tag ('' when none was found). */
  after: string
  closed: boolean
}

/**
 * Takes code from `first` (the rest of the opening line) and the lines after
 * `index` up to the first match of `closing` (not global); the leading and
 * trailing blank lines go, as the sites render them.
 */
export function captureCode(lines: readonly string[], index: number, first: string, closing: RegExp): CapturedCode {
  const code: string[] = []
  let line = index
  let text = first
  for (;;) {
    const close = closing.exec(text)
    if (close) {
      code.push(text.slice(0, close.index))
      return {code: trimBlankLines(code), endLine: line, after: text.slice(close.index + close[0].length), closed: true}
    }
    code.push(text)
    if (line + 1 >= lines.length) return {code: trimBlankLines(code), endLine: line, after: '', closed: false}
    text = lines[++line]!
  }
}

/** `code` as a fenced block in `language` under the container prefix `prefix` (a fence longer than any backtick run inside). */
export function fencedLines(code: readonly string[], language: string, prefix: string): string[] {
  let longest = 2
  for (const line of code) for (const run of line.match(/`+/g) ?? []) longest = Math.max(longest, run.length)
  const fence = '`'.repeat(longest + 1)
  const indent = commonIndent(code)
  const info = language.replace(/[`\s]/g, '').toLowerCase()
  return [prefix + fence + info, ...code.map((line) => prefix + line.slice(indent)), prefix + fence]
}

function trimBlankLines(code: string[]): string[] {
  let start = 0
  let end = code.length
  while (start < end && code[start]!.trim() === '') start++
  while (end > start && code[end - 1]!.trim() === '') end--
  return code.slice(start, end)
}

/** The indentation all non-blank lines share (a tab pane indented in a list indents its code too). */
function commonIndent(code: readonly string[]): number {
  let indent = Infinity
  for (const line of code) {
    if (line.trim() === '') continue
    indent = Math.min(indent, /^[ \t]*/.exec(line)![0].length)
  }
  return indent === Infinity ? 0 : indent
}
