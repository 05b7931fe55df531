/**
 * Code blocks that hold a fence of their own (a Markdown example with a
 * ```` ``` ```` line): the platform answers such a body with
 * `500 server_error` and stores nothing. The serialiser writes those lines
 * guarded (`plugins/code-fence.ts`), so the body is accepted; the warning
 * says so, because the guard is a character a reader copying the code gets
 * too.
 */
import type {Code, Root} from 'mdast'
import type {VFile} from 'vfile'
import {isFenceLine} from '../../../plugins/code-fence.js'
import {warn} from '../messages.js'
import {SKIP, walk} from './walk.js'

/** Index (from 0) of the first line of `code` that the platform would read as a fence, or -1. */
export function firstFenceLine(code: string): number {
  if (!code.includes('```')) return -1
  return code.split(/\r?\n|\r/).findIndex(isFenceLine)
}

/** Whether the code block at `node` is fenced in `source` (its text then starts on the line after it). */
function isFenced(node: Code, source: string): boolean {
  const offset = node.position?.start.offset
  return offset !== undefined && (source.startsWith('```', offset) || source.startsWith('~~~', offset))
}

/**
 * Warns (`kb-nested-fence`) at the first fence line inside each code block,
 * naming the risk and what kbsync does about it.
 */
export function warnNestedFences(tree: Root, file: VFile, source: string): void {
  walk(tree, (node) => {
    if (node.type !== 'code') return
    const index = firstFenceLine(node.value)
    if (index < 0) return SKIP
    const start = node.position?.start
    const line = start ? start.line + index + (isFenced(node, source) ? 1 : 0) : undefined
    const place = line === undefined ? undefined : {start: {line, column: 1}, end: {line, column: 1}}
    warn(
      file,
      place ? {type: 'code', position: place} : node,
      'kb-nested-fence',
      'This code block holds a line starting with ``` (a fence inside a fence): the platform answers such a body with 500 and saves nothing. ' +
        'kbsync writes that line with a zero-width space before the backticks, so the article is saved and looks the same, but a reader who copies the code copies that invisible character too; ' +
        'to avoid it, write the inner fence with tildes (~~~).'
    )
    return SKIP
  })
}
