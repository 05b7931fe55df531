/**
 * Code blocks in the only form the platform is known to accept: a fence of
 * three backticks. The dialect has no other fence (the spec says "three
 * backticks", and every body the platform returns uses them), and the
 * platform answers a body whose fenced block holds a line of backticks (a
 * Markdown example with its own fence) with `500 server_error`, whether the
 * outer fence is longer or not. So a line of the code that starts with
 * three or more backticks is written with a zero-width space (U+200B)
 * before its first backtick: no parser reads that line as a fence, the
 * reader sees the same text, and a parse takes the character away again,
 * so the tree round-trips and a body the platform returns is written back
 * byte for byte. See docs/dialect.md, "Code blocks holding a fence".
 */
import type {Code} from 'mdast'
import type {CompileContext, Token} from 'mdast-util-from-markdown'
import {defaultHandlers, type Handle} from 'mdast-util-to-markdown'
import {FenceTracker} from './fence-tracker.js'

/** The character written before the backticks of a fence line inside a code block. */
export const fenceGuard = '\u200B'

/**
 * A line that starts (after blanks) with three or more backticks, read as a
 * fence by the platform whatever CommonMark says, or with guards before
 * them already: each gets one more guard, so that taking one away gives
 * back any text.
 */
const fenceLine = /^([ \t]*)(?=\u200B*```)/gm

/** A line guarded by `guardFenceLines`: its first guard goes. */
const guardedLine = /^([ \t]*)\u200B(?=\u200B*```)/gm

/** Whether a line of code text (no line ending) would be read as a fence by the platform. */
export function isFenceLine(line: string): boolean {
  return /^[ \t]*```/.test(line)
}

/** Quote markers and one list marker before a line's content. */
const containerPrefix = /^(?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?/

/** Where a body holds a fence line inside a fenced code block, and whether that line is guarded. */
export interface NestedFence {
  /** From 1. */
  line: number
  /** Written with the zero-width space before its backticks (as `stringifyKb` writes it). */
  guarded: boolean
}

/**
 * The first line of `body` (dialect text, as sent to the platform) that
 * starts with three backticks inside a fenced code block: what the platform
 * answers with 500. Guarded lines count only with `withGuarded`. Fences are
 * delimited as CommonMark does, in quotes and list items too, indentation
 * aside: a reading of the text, not a parser.
 */
export function nestedFenceLine(body: string, withGuarded = false): NestedFence | undefined {
  const lines = body.split(/\r\n|\r|\n/)
  const fences = new FenceTracker()
  for (let index = 0; index < lines.length; index++) {
    const content = lines[index]!.replace(containerPrefix, '')
    const inside = fences.isOpen
    fences.isCode(content)
    // An opening line, or the closing one.
    if (!inside || !fences.isOpen) continue
    if (content.startsWith('```')) return {line: index + 1, guarded: false}
    else if (withGuarded && /^\u200B+```/.test(content)) return {line: index + 1, guarded: true}
  }
  return undefined
}

/** Code text with a zero-width space before the backticks of every line that starts with three of them. */
export function guardFenceLines(value: string): string {
  return value.includes('```') ? value.replace(fenceLine, `$1${fenceGuard}`) : value
}

/** The inverse of `guardFenceLines`: the zero-width space before a line's leading backticks goes. */
export function unguardFenceLines(value: string): string {
  return value.includes(fenceGuard) ? value.replace(guardedLine, '$1') : value
}

/**
 * A code block, always in a three-backtick fence: fence lines inside are
 * guarded, so no line can close it, and a longer run of backticks inside a
 * line never closes a fence either. mdast-util-to-markdown would pick a
 * longer fence (four backticks and more), which the dialect does not have.
 */
export const code: Handle = (node: Code, parent, state, info) => {
  const value = guardFenceLines(node.value)
  const written = defaultHandlers.code({...node, value}, parent, state, info)
  const fence = /^`{4,}/.exec(written)?.[0]
  // Only the outer fence grew (no line of `value` starts with backticks): both ends go back to three.
  if (!fence || !written.endsWith(fence)) return written
  return '```' + written.slice(fence.length, written.length - fence.length) + '```'
}

/**
 * from-markdown exit of a fenced code block: as mdast-util-from-markdown's
 * own (leading and trailing line ending dropped), then the guards taken out.
 */
export function exitCodeFenced(this: CompileContext, token: Token): undefined {
  const data = this.resume()
  const node = this.stack[this.stack.length - 1] as Code
  node.value = unguardFenceLines(data.replace(/^(\r?\n|\r)|(\r?\n|\r)$/g, ''))
  this.data.flowCodeInside = undefined
  this.exit(token)
}
