/**
 * The lines of a text, found from its start as far as a reader asks. A
 * scan reads only the first lines of each document (the front matter, the
 * heading it opens with) and blanks them in its body: splitting the whole
 * text into an array of lines for that, three times a document, made most
 * of the garbage of a no-op push (issue 32). The lines are those of
 * `text.split('\n')`: `'a\n'` has two, the second empty.
 */
export class TextLines {
  /** The offset where each line found so far starts. */
  private readonly starts: number[] = [0]
  /** Whether the last line has been found. */
  private complete = false

  constructor(readonly text: string) {}

  /** Whether the text has a line `index` (0-based). */
  has(index: number): boolean {
    while (this.starts.length <= index && !this.complete) {
      const end = this.text.indexOf('\n', this.starts[this.starts.length - 1])
      if (end === -1) this.complete = true
      else this.starts.push(end + 1)
    }
    return index < this.starts.length
  }

  /** Line `index` without its line feed (`''` past the last line). */
  line(index: number): string {
    if (!this.has(index)) return ''
    const start = this.starts[index]!
    return this.text.slice(start, this.has(index + 1) ? this.starts[index + 1]! - 1 : this.text.length)
  }

  /** The offset where line `index` starts (the text's length past the last line). */
  start(index: number): number {
    return this.has(index) ? this.starts[index]! : this.text.length
  }
}

/** Whether `text` is empty or white space only (`text.trim() === ''`, without copying the text). */
export function isBlank(text: string): boolean {
  // `\s` is exactly what `trim` removes: white space and line terminators.
  return !/\S/.test(text)
}
