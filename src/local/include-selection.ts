/**
 * mdBook's include directives, without I/O: finding them in a line
 * (`{{#include path}}`, `{{#include path:anchor}}`, `{{#include path:a:b}}`,
 * `path:a:`, `path::b`, `path:a`, `{{#rustdoc_include …}}`, `{{#title …}}`;
 * `\{{#include …}}` is the directive written as text) and taking the part
 * of an included file a directive asks for, as mdBook does.
 */

/** One directive found in a line. */
export interface IncludeDirective {
  /** `include`, `rustdoc_include`, `playground`, `title`, or another tool's name. */
  kind: string
  /** The file, relative to the including file. */
  path: string
  /** What to take of it. */
  selection: Selection
  /** Where it starts in the line (0-based) and its length. */
  index: number
  length: number
  /** Whether it was escaped (`\{{#…}}`): written as text, without the backslash. */
  escaped: boolean
}

/** The whole file, lines `from`..`to` (1-based, inclusive, either open), or the lines of an anchor. */
export type Selection = {whole: true} | {from?: number; to?: number} | {anchor: string}

// The argument is trimmed in code: a lazy group before optional white space would backtrack. It holds no `{`
// either, so a match attempt stops at the next directive: a long line of unclosed `{{#a ` is read in linear time.
const directive = /(\\?)\{\{#([\w-]+)([ \t][^{}]*)?\}\}/g

/** The directives of `line`, in order. */
export function findDirectives(line: string): IncludeDirective[] {
  const found: IncludeDirective[] = []
  for (const match of line.matchAll(directive)) {
    const [text, escape, kind, argument = ''] = match
    found.push({
      kind,
      ...parseArgument(argument.trim()),
      index: match.index,
      length: text.length,
      escaped: escape === '\\'
    })
  }
  return found
}

/** `path`, `path:anchor`, `path:a:b`, `path:a:`, `path::b`, `path:a` (line a only). */
function parseArgument(argument: string): {path: string; selection: Selection} {
  const [path = '', first, second] = argument.split(':')
  if (first === undefined) return {path, selection: {whole: true}}
  if (second === undefined && !/^\d*$/.test(first)) return {path, selection: {anchor: first}}
  const from = first === '' ? undefined : Number(first)
  const to = second === undefined ? from : second === '' ? undefined : Number(second)
  return {path, selection: {...(from !== undefined ? {from} : {}), ...(to !== undefined ? {to} : {})}}
}

const anchorLine = /ANCHOR(?:_END)?:\s*[\w-]+/

/**
 * The lines of `text` a selection takes (undefined when its anchor is not
 * in the file). Lines marking anchors (`ANCHOR: name`, `ANCHOR_END: name`)
 * are never part of the result; `hidden` also drops Rust's hidden lines
 * (`# ` or a lone `#`), which `{{#rustdoc_include}}` leaves out of the page.
 */
export function selectLines(text: string, selection: Selection, hidden: boolean): string | undefined {
  let lines = text.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n')
  if ('anchor' in selection) {
    const start = lines.findIndex((line) => anchorMatch(line, 'ANCHOR', selection.anchor))
    if (start === -1) return undefined
    const end = lines.findIndex((line, index) => index > start && anchorMatch(line, 'ANCHOR_END', selection.anchor))
    lines = lines.slice(start + 1, end === -1 ? undefined : end)
  } else if (!('whole' in selection)) {
    lines = lines.slice((selection.from ?? 1) - 1, selection.to)
  }
  lines = lines.filter((line) => !anchorLine.test(line))
  if (hidden) lines = lines.filter((line) => !/^\s*#(?: |$)/.test(line))
  return lines.join('\n')
}

function anchorMatch(line: string, marker: string, name: string): boolean {
  const match = new RegExp(`${marker}:\\s*([\\w-]+)`).exec(line)
  return match?.[1] === name
}

/**
 * The inline code spans of `line` as [start, end) of their content: a run
 * of backticks up to the next run of the same length (CommonMark's rule,
 * within one line). Past 256 runs none are reported (a hostile line).
 */
export function codeSpans(line: string): Array<[number, number]> {
  const runs = [...line.matchAll(/`+/g)].map((match) => ({start: match.index, length: match[0].length}))
  if (runs.length > 256) return []
  const spans: Array<[number, number]> = []
  for (let open = 0; open < runs.length; open++) {
    const opener = runs[open]!
    const close = runs.findIndex((run, index) => index > open && run.length === opener.length)
    if (close === -1) continue
    spans.push([opener.start + opener.length, runs[close]!.start])
    open = close
  }
  return spans
}
