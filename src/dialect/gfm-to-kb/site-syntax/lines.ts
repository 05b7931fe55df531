/**
 * What the line pre-passes of docs-site syntax share: a source as lines
 * (rewritten in place; a line added for a closing tag is mapped back to
 * the author's line by `origin`, so every message of the parse that
 * follows points at the author's line), the container prefix of a line,
 * and the fenced code blocks no pass may touch (`FenceTracker`, shared
 * with the plugins).
 */
import {FenceTracker} from '../../../../plugins/fence-tracker.js'

export {FenceTracker}

/** A message of a pre-pass: where, which rule, what is wrong and how to fix it. */
export interface SiteMessage {
  line: number
  column: number
  ruleId: string
  reason: string
}

/** The title a pre-pass found for a block it opened: inserted into the parsed tree (see `titles.ts`). */
export interface BlockTitle {
  /** Markdown of the title (inline), or undefined for none. */
  title?: string
  kind: 'hintBlock' | 'details'
}

/** The state the pre-passes build up: the lines, the titles of the blocks opened (by the author's 1-based line), the messages. */
export interface SiteSource {
  lines: string[]
  /** For each of `lines`, the author's 1-based line it stands for. */
  origin: number[]
  titles: Map<number, BlockTitle>
  messages: SiteMessage[]
}

/** The container prefix of a line (indentation and block quote markers) and the rest. */
export function splitPrefix(line: string): [prefix: string, rest: string] {
  const prefix = /^(?:[ \t]*>)*[ \t]*/.exec(line)![0]
  return [prefix, line.slice(prefix.length)]
}

/** Whether a line holds nothing but whitespace (and a carriage return). */
export function isBlank(line: string): boolean {
  return /^[ \t\r]*$/.test(line)
}

/** The dialect's opening tag of a hint block of `color`. */
export function hintOpen(color: string): string {
  return `<div data-node="hintBlock" data-color="${color}">`
}

/** The opening tag of a block of `kind`. */
export function openTag(kind: BlockTitle['kind'], color: string): string {
  return kind === 'details' ? '<details>' : hintOpen(color)
}

/** The closing tag of a block of `kind`. */
export function closeTag(kind: BlockTitle['kind']): string {
  return kind === 'details' ? '</details>' : '</div>'
}

/** `note` -> `Note`: the title MkDocs gives a block of that type. */
export function capitalise(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1)
}
