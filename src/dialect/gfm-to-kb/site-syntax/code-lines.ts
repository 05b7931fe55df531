/**
 * Which lines are code, followed line by line without a parser, for the
 * line pre-passes: a marker written in code (`=== "Tab"`, `!!! note`,
 * `:::tip` in an example) is no marker. Fenced code is `FenceTracker`'s
 * (shared with the plugins); on top of it, a fence indented four columns
 * or more past the one that opened the block holds code and closes
 * nothing (an example of tabs with code blocks inside a fenced block),
 * and indented code: a line indented four columns or more past its
 * container after a blank line (or first in it), and the lines after it
 * that stay indented, unless a list is open, whose items' content is
 * indented the same way.
 */
import {FenceTracker, splitPrefix} from './lines.js'

// A list item's marker and the white space after it (content starts past it: one to four columns).
const listMarker = /^(?:[-+*]|\d{1,9}[.)])(?:[ \t]{1,4}|$)/

/** Follows the code of one container's lines (see the module comment). */
export class CodeLines {
  private readonly fences = new FenceTracker()
  private fenceIndent = 0
  private indented = false
  private afterBlank = true
  /** The content columns of the list items open, innermost last: their content is indented, not code. */
  private items: number[] = []
  /** The `items` of the containers around the one entered last (`enter`). */
  private readonly outer: number[][] = []

  /** Whether a fenced code block is open. */
  get inFence(): boolean {
    return this.fences.isOpen
  }

  /** Whether `line` (a whole line of the container: indentation and quote markers included) is code; updates the state. */
  isCode(line: string): boolean {
    const [prefix, rest] = splitPrefix(line)
    const quoted = prefix.includes('>')
    const lead = indentOf(line)
    const indent = quoted ? prefixIndent(prefix) : lead
    if (this.fences.isOpen) {
      // Indented past the opening fence, a fence is code: only one at most three columns further closes.
      if (indent < this.fenceIndent + 4) this.fences.isCode(rest)
      return true
    }
    if (rest === '' || /^[ \t\r]*$/.test(rest)) {
      if (!quoted) this.afterBlank = true
      return this.indented
    }
    const wasBlank = this.afterBlank
    this.afterBlank = false
    // After a blank line, a line left of an item's content closes it (a lazy line right after text does not).
    if (wasBlank) while (this.items.length > 0 && lead < this.items[this.items.length - 1]!) this.items.pop()
    const threshold = (this.items[this.items.length - 1] ?? 0) + 4
    if (!quoted && lead >= threshold && (this.indented || wasBlank)) return (this.indented = true)
    this.indented = false
    if (this.fences.isCode(rest)) {
      this.fenceIndent = indent
      return true
    }
    const marker = quoted ? null : listMarker.exec(rest)
    if (marker) {
      while (this.items.length > 0 && lead < this.items[this.items.length - 1]!) this.items.pop()
      this.items.push(lead + Math.max(2, marker[0].length))
    }
    return false
  }

  /**
   * Enters a container whose content starts at `column` (of a list item's
   * content, say: it is no more code than the item's is): its content is a
   * document of its own, until `leave`.
   */
  enter(column: number): void {
    this.outer.push(this.items)
    this.restart(column > 0 ? [column] : [])
  }

  /** Leaves the container entered last: the lists open around it are again. */
  leave(): void {
    this.restart(this.outer.pop() ?? [])
  }

  private restart(items: number[]): void {
    this.fences.reset()
    this.indented = false
    this.afterBlank = true
    this.items = items
  }
}

/** The columns of indentation at the end of a container prefix (after its last quote marker and the space that belongs to it). */
export function prefixIndent(prefix: string): number {
  const quote = prefix.lastIndexOf('>')
  let rest = quote === -1 ? prefix : prefix.slice(quote + 1)
  if (quote !== -1 && rest.startsWith(' ')) rest = rest.slice(1)
  return indentOf(rest)
}

/** The columns of a line's indentation (a tab counts to the next multiple of four). */
export function indentOf(line: string): number {
  let column = 0
  for (const char of line) {
    if (char === ' ') column++
    else if (char === '\t') column += 4 - (column % 4)
    else break
  }
  return column
}
