/**
 * Following the fenced code blocks of a text line by line, without a
 * parser: the line pre-passes of docs-site syntax, the bound on container
 * nesting before a parse (`container-depth.ts`) and the search for a fence
 * line inside code (`code-fence.ts`) all need to know which lines are code.
 * Each strips a line's container prefix its own way (a pre-pass all
 * indentation and quote markers, the nesting bound up to three spaces as
 * CommonMark does) and gives the tracker the rest.
 */

/** A fence that opens a block: three or more backticks (an info string without backticks) or tildes. */
const fenceOpen = /^(`{3,}|~{3,})([^\n]*)$/

/** A fence alone on its line (a carriage return aside), which closes a block opened by the same character, at most as long. */
const fenceClose = /^(`{3,}|~{3,})[ \t\r]*$/

/** Follows the fenced code blocks of a text, line by line. */
export class FenceTracker {
  private open: {char: string; length: number} | undefined

  /** Whether a fence is open: the next line is code, unless it closes the fence. */
  get isOpen(): boolean {
    return this.open !== undefined
  }

  /** Whether `rest` (a line without its container prefix) opens, holds or closes a fence; updates the state. */
  isCode(rest: string): boolean {
    if (this.open) {
      const close = fenceClose.exec(rest)
      if (close && close[1]![0] === this.open.char && close[1]!.length >= this.open.length) this.open = undefined
      return true
    }
    const open = fenceOpen.exec(rest)
    // A backtick fence's info string cannot hold a backtick (CommonMark): such a line is inline code.
    if (!open || (open[1]![0] === '`' && open[2]!.includes('`'))) return false
    this.open = {char: open[1]![0]!, length: open[1]!.length}
    return true
  }

  /** Forgets an open fence (its container ended). */
  reset(): void {
    this.open = undefined
  }
}
