/**
 * A platform habit: a body in which a line of three backticks sits inside a
 * fenced code block (a four-backtick or tilde fence around code that shows
 * a fence, or a three-backtick line with an info string, which CommonMark
 * reads as code) makes the platform answer the write with 500, not 400. Its
 * dialect knows three-backtick fences only. This finds such a line the way
 * CommonMark delimits fences, in quotes and list items too, without caring
 * for indentation: good enough to reproduce the failure, not a parser.
 */

/** A fence that opens a block: three or more backticks (an info string without backticks) or tildes. */
const opening = /^(`{3,}|~{3,})([^]*)$/
/** A fence alone on its line, which closes a block opened by the same character, at most as long. */
const closing = /^(`{3,}|~{3,})[ \t]*$/
/** Quote markers and one list marker before a line's content. */
const containerPrefix = /^(?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?/

/** The 1-based line of the first line starting with three backticks inside a fenced code block of `body`, or undefined. */
export function nestedFenceLine(body: string): number | undefined {
  const lines = body.split(/\r\n|\r|\n/)
  let open: {char: string; length: number} | undefined
  for (let index = 0; index < lines.length; index++) {
    const content = lines[index]!.replace(containerPrefix, '')
    if (!open) {
      const fence = opening.exec(content)
      if (fence && !(fence[1]![0] === '`' && fence[2]!.includes('`'))) open = {char: fence[1]![0]!, length: fence[1]!.length}
      continue
    }
    const fence = closing.exec(content)
    if (fence && fence[1]![0] === open.char && fence[1]!.length >= open.length) {
      open = undefined
      continue
    }
    if (content.startsWith('```')) return index + 1
  }
  return undefined
}
