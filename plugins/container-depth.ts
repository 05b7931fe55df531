/**
 * micromark opens every container of a line (`>`, `-`, `1.`) against every
 * container already open, so a line of n markers costs n² (`- ` x 10,000,
 * 20 KB, takes 8 s in remark-parse alone; 40 KB, 44 s). The tree is capped
 * at `maxNesting` anyway, so before a parse the marker that would open
 * the level past it is escaped (`\>`, `\-`, `1\.`): it reads as the same
 * character, as text, and the cap then reports the line. A line nests no
 * deeper than the limit in any body a person writes, so those are returned
 * as they are (the same string).
 *
 * Lines of a fenced code block at the top level are code, not containers,
 * and are left alone; a fence inside a container is not followed (a line
 * that leaves the container would end it), so its code is read as lines.
 */
import {maxNesting} from './depth.js'
import {FenceTracker} from './fence-tracker.js'

/** How much of the limit a marker takes: a quote one level, a list item two (list and item). */
const quoteCost = 1
const itemCost = 2

/**
 * `source` with the container marker that would nest a line deeper than
 * `max` escaped, on every line where one would; `source` itself when none
 * does. Linear in the length of `source`.
 */
export function boundContainers(source: string, max: number = maxNesting): string {
  let out: string[] | undefined
  let copied = 0
  const fences = new FenceTracker()
  let start = 0
  while (start <= source.length) {
    let end = source.indexOf('\n', start)
    if (end === -1) end = source.length
    if (fences.isOpen) {
      fences.isCode(fenceLine(source, start, end))
    } else {
      const line = scanPrefix(source, start, end, max)
      if (line.depth === 0) fences.isCode(fenceLine(source, start, end))
      if (line.escapeAt !== undefined && !isThematicBreak(source.slice(start, end))) {
        out ??= []
        out.push(source.slice(copied, line.escapeAt), '\\')
        copied = line.escapeAt
      }
    }
    start = end + 1
  }
  if (!out) return source
  out.push(source.slice(copied))
  return out.join('')
}

/** The depth the container markers opening a line reach, and where the first marker past `max` stands. */
function scanPrefix(source: string, start: number, end: number, max: number): {depth: number; escapeAt?: number} {
  let depth = 0
  let index = start
  while (index < end) {
    while (index < end && (source[index] === ' ' || source[index] === '\t')) index++
    const after = markerEnd(source, index, end)
    if (after === undefined) break
    const cost = source[index] === '>' ? quoteCost : itemCost
    if (depth + cost > max)
      return {depth, escapeAt: source[index] === '>' || !isDigit(source[index]!) ? index : after - 1}
    depth += cost
    index = after
  }
  return {depth}
}

/** The end of a container marker at `index` (`>`, a bullet, `1.`/`1)` followed by white space or the line's end). */
function markerEnd(source: string, index: number, end: number): number | undefined {
  const char = source[index]
  if (char === '>') return index + 1
  const spaced = (at: number) => at === end || source[at] === ' ' || source[at] === '\t'
  if (char === '-' || char === '+' || char === '*') return spaced(index + 1) ? index + 1 : undefined
  let at = index
  while (at < end && at - index < 9 && isDigit(source[at]!)) at++
  if (at === index || (source[at] !== '.' && source[at] !== ')')) return undefined
  return spaced(at + 1) ? at + 1 : undefined
}

function isDigit(char: string): boolean {
  return char >= '0' && char <= '9'
}

/** The line from `start` to `end` past up to three spaces: a fence may be indented so much (CommonMark). */
function fenceLine(source: string, start: number, end: number): string {
  let from = start
  while (from < end && from - start < 3 && source[from] === ' ') from++
  return source.slice(from, end)
}

/** `- - -`, `* * *`: a line of one marker character is a rule, never a list. */
function isThematicBreak(line: string): boolean {
  return /^[ \t]*([-*_])(?:[ \t]*\1){2,}[ \t]*$/.test(line)
}
