/**
 * Docusaurus's ```` ```mdx-code-block ```` fences: their content is MDX
 * the site renders in place (the fence only hides it from other Markdown
 * readers), often one half of a component around ordinary Markdown:
 * `<Tabs><TabItem value="npm">` in one fence, a code block, `</TabItem>`
 * in the next. So the fences go and their content stands in the document,
 * which is then read as MDX. Fence lines are blanked, so every line keeps
 * its number.
 */
import {splitPrefix} from './lines.js'

const opening = /^(`{3,}|~{3,})[ \t]*mdx-code-block[ \t\r]*$/
const fenceLine = /^(`{3,}|~{3,})([^\n]*)$/

/** Whether `markdown` may hold an `mdx-code-block` fence (a cheap test before the pass). */
export function mayHoldMdxCodeBlock(markdown: string): boolean {
  return markdown.includes('mdx-code-block')
}

/** `markdown` with the fence lines of its `mdx-code-block` blocks blanked; the same text when it has none. */
export function unwrapMdxCodeBlocks(markdown: string): string {
  const lines = markdown.split('\n')
  let changed = false
  // The fence open now: an mdx-code-block's (its lines are MDX) or another code block's (left alone).
  let open: {char: string; length: number; mdx: boolean; line: number} | undefined
  for (let index = 0; index < lines.length; index++) {
    const rest = splitPrefix(lines[index]!)[1]
    const fence = fenceLine.exec(rest)
    if (!fence) continue
    const marks = fence[1]!
    if (open) {
      if (marks[0] !== open.char || marks.length < open.length || fence[2]!.trim() !== '') continue
      if (open.mdx) {
        lines[open.line] = ''
        lines[index] = ''
        changed = true
      }
      open = undefined
      continue
    }
    // A backtick fence's info string cannot hold a backtick: such a line is inline code.
    if (marks[0] === '`' && fence[2]!.includes('`')) continue
    open = {char: marks[0]!, length: marks.length, mdx: opening.test(rest), line: index}
  }
  return changed ? lines.join('\n') : markdown
}
