/** The edit that deletes blocks: their whole lines and one separating blank line, nothing more. */
import {lineBefore, type Edit} from './splice.js'

/** Whether a line (or the part of one) holds only a container's continuation (spaces, `>`). */
const onlyPrefix = (text: string): boolean => /^[ \t>]*\r?$/.test(text)

/**
 * Deletes `[start, end)` of the source: whole lines when nothing but the
 * container's prefix shares them, and one blank line after them (or before
 * them, at the end of a container or file).
 */
export function deletionEdit(source: string, start: number, end: number): Edit {
  const before = lineBefore(source, start)
  const lineEnd = source.indexOf('\n', end)
  const after = source.slice(end, lineEnd === -1 ? source.length : lineEnd)
  if (!onlyPrefix(before) || after.trim() !== '') return {start, end, text: ''}
  let from = start - before.length
  let to = lineEnd === -1 ? source.length : lineEnd + 1
  const nextEnd = source.indexOf('\n', to)
  const next = to < source.length ? source.slice(to, nextEnd === -1 ? source.length : nextEnd) : undefined
  if (next !== undefined && onlyPrefix(next)) to = nextEnd === -1 ? source.length : nextEnd + 1
  else if (from > 0) {
    const previousStart = source.lastIndexOf('\n', from - 2) + 1
    if (onlyPrefix(source.slice(previousStart, from - 1))) from = previousStart
  }
  return {start: from, end: to, text: ''}
}
