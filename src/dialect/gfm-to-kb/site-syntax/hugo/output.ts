/**
 * The output of the shortcode pass: lines written under the container
 * prefix of the line they come from, each mapped to the author's line, and
 * the losses counted for one message per kind and name.
 */
import type {SiteMessage, SiteSource} from '../lines.js'
import {trimBlanksEnd} from '../../../../trust/linear-text.js'

/** Lines being written for the author's line `author`, with the text of the current line still open. */
export class Output {
  readonly lines: string[] = []
  readonly origin: number[] = []
  /** The container prefix of the author's line (indentation, `>` marks). */
  prefix = ''
  author = 1
  private text = ''
  /** Whether the open text starts a line of its own (after a block the pass wrote), so it needs the prefix. */
  private fresh = false

  /** Starts the author's line `author` whose prefix is `prefix`. */
  startLine(author: number, prefix: string): void {
    this.author = author
    this.prefix = prefix
    this.fresh = false
  }

  /** Adds text to the open line. */
  add(text: string): void {
    this.text += text
  }

  /** Ends the open line: written when it holds more than white space, or always with `keep`. */
  endLine(keep = false): void {
    if (this.text.trim() !== '' || keep)
      this.push(this.fresh ? this.prefix + this.text.replace(/^[ \t]+/, '') : this.text)
    this.text = ''
    this.fresh = true
  }

  /** Writes `line` under the prefix as a line of its own, after the open text. */
  block(line: string): void {
    this.endLine()
    this.push(this.prefix + line)
  }

  /** A blank line (under the quote marks of the prefix), unless the last line is blank already. */
  blank(): void {
    this.endLine()
    const last = this.lines[this.lines.length - 1]
    if (last !== undefined && last.trim().replace(/>/g, '') === '') return
    this.push(trimBlanksEnd(this.prefix))
  }

  /** Writes a whole line as it is (outside the open text). */
  push(line: string): void {
    // Text of a tag written over several lines keeps their breaks.
    for (const part of line.split('\n')) {
      this.lines.push(part)
      this.origin.push(this.author)
    }
  }
}

/** Counted losses: one message per rule and name, at the first place, saying how many places. */
export class Losses {
  private readonly found = new Map<string, {count: number; message: SiteMessage; reason: (count: number) => string}>()

  /** Counts a loss of `rule` for `name` at `line`/`column`; `reason` words the message for a count. */
  add(rule: string, name: string, line: number, column: number, reason: (count: number) => string): void {
    const key = rule + '\0' + name
    const entry = this.found.get(key)
    if (entry) entry.count++
    else this.found.set(key, {count: 1, message: {line, column, ruleId: rule, reason: ''}, reason})
  }

  /** Adds the messages to `site`. */
  report(site: SiteSource): void {
    for (const {count, message, reason} of this.found.values()) site.messages.push({...message, reason: reason(count)})
  }
}

/** `1 place` / `3 places, the first here`. */
export function places(count: number): string {
  return count === 1 ? '1 place' : `${count} places, the first here`
}
