/**
 * Edits the `nav` of `mkdocs.yml` (`mkdocs.ts` reads it) written in block
 * style, one item a line: `- Title: path.md`, `- path.md`, `- Section:`
 * over a more indented list. Items are added with the list's indentation,
 * removed with what they hold, moved, retitled; comments, other keys and
 * every other line stay byte for byte. Pure: text in, text out. A `nav`
 * in flow style (`nav: [...]`) is not edited (`canEditMkdocsNav`).
 */
import {
  editOutline,
  indentOf,
  nestedIndent,
  widthOf,
  type LineFormat,
  type NewEntry,
  type OutlineEdit
} from './edit-lines.js'

const item = /^([ \t]*-[ \t]+)(.*)$/
const navKey = /^nav[ \t]*:[ \t]*(?:#.*)?$/

/** A title as a YAML key: plain where YAML reads it back as the same string, else double-quoted. */
function yamlKey(title: string): string {
  const plain =
    /^[^\s'"&*!|>%@`#,[\]{}?:-][^:#]*$/.test(title) &&
    !/\s$/.test(title) &&
    !/^(?:true|false|yes|no|on|off|null|~|[-+.\d][\d._eE+-]*)$/i.test(title)
  return plain ? title : JSON.stringify(title)
}

/** The key of an item's line and what follows it (`: value`), or undefined for a bare page (`- path.md`). */
function keyOf(rest: string): {key: string; tail: string} | undefined {
  const quoted = /^("(?:\\.|[^"\\])*"|'(?:''|[^'])*')(\s*:(?:\s.*|$))/.exec(rest)
  if (quoted) return {key: quoted[1]!, tail: quoted[2]!}
  const plain = /^(.*?)(:(?:[ \t].*|$))/.exec(rest)
  return plain ? {key: plain[1]!, tail: plain[2]!} : undefined
}

/** The 0-based index of the `nav:` line, when `nav` is a block list. */
function navLine(lines: readonly string[]): number | undefined {
  const index = lines.findIndex((line) => navKey.test(line))
  return index === -1 ? undefined : index
}

/** The last line of the item at `index` with the items it holds (comments and blank lines at its end left out). */
function blockEnd(lines: readonly string[], index: number): number {
  const width = widthOf(indentOf(lines[index]!))
  let last = index
  for (let i = index + 1; i < lines.length; i++) {
    const line = lines[i]!
    if (line.trim() === '' || line.trim().startsWith('#')) continue
    if (widthOf(indentOf(line)) <= width) break
    last = i
  }
  return last
}

const mkdocsFormat: LineFormat = {
  isEntry: (line) => item.test(line),
  blockEnd,
  endOf(lines) {
    const nav = navLine(lines)
    if (nav === undefined) return undefined
    let last: number | undefined
    let first: number | undefined
    for (let i = nav + 1; i < lines.length; i++) {
      const line = lines[i]!
      if (line.trim() === '' || line.trim().startsWith('#')) continue
      if (widthOf(indentOf(line)) === 0 && !line.startsWith('-')) break
      first ??= i
      last = i
    }
    return first === undefined || last === undefined ? undefined : {after: last, like: first}
  },
  entryLine(indent, _like, entry: NewEntry) {
    if (entry.target === undefined) return `${indent}- ${yamlKey(entry.title)}:`
    return `${indent}- ${yamlKey(entry.title)}: ${yamlValue(entry.target)}`
  },
  retitle(line, title) {
    const match = item.exec(line)
    const key = match ? keyOf(match[2]!) : undefined
    return match && key ? `${match[1]}${yamlKey(title)}${key.tail}` : line
  },
  retarget(line, target) {
    const match = item.exec(line)
    if (!match) return line
    const key = keyOf(match[2]!)
    if (!key) return `${match[1]}${yamlValue(target)}`
    return /^:\s*$/.test(key.tail) ? line : `${match[1]}${key.key}: ${yamlValue(target)}`
  },
  deeper(lines, indent) {
    return nestedIndent(lines, indent, item, '  ')
  }
}

/** A path as a YAML value: plain where it reads back as the same string. */
function yamlValue(target: string): string {
  return /^[\w./()-][\w ./()-]*$/.test(target) && !/\s$/.test(target) ? target : JSON.stringify(target)
}

/** Whether `text`'s `nav` is a block list, which `editMkdocsNav` edits line by line. */
export function canEditMkdocsNav(text: string): boolean {
  return navLine(text.replace(/\r\n/g, '\n').split('\n')) !== undefined
}

/** `mkdocs.yml` with `edits` applied to its `nav` (lines are the original text's, 1-based). */
export function editMkdocsNav(text: string, edits: readonly OutlineEdit[]): string {
  return editOutline(text, edits, mkdocsFormat)
}
