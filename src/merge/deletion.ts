/** The edit that deletes blocks: their whole lines and one separating blank line, nothing more. */
import {lineBefore, type Edit} from './splice.js'

/** Whether a line (or the part of one) holds only a container's continuation (spaces, `>`). */
const onlyPrefix = (text: string): boolean => /^[ \t>]*\r?$/.test(text)

/**
 * Deletes `[start, end)` of the source: whole lines when nothing but the
 * container's prefix shares them, and one blank line after them (or before
 * them, at the end of a container or file). Items of a tight list take no
 * blank line: the ones beside them separate the list from its neighbours.
 */
export function deletionEdit(source: string, start: number, end: number, tight = false): Edit {
  const before = lineBefore(source, start)
  const lineEnd = source.indexOf('\n', end)
  const after = source.slice(end, lineEnd === -1 ? source.length : lineEnd)
  if (!onlyPrefix(before) || after.trim() !== '') return {start, end, text: ''}
  let from = start - before.length
  let to = lineEnd === -1 ? source.length : lineEnd + 1
  const nextEnd = source.indexOf('\n', to)
  const next = to < source.length ? source.slice(to, nextEnd === -1 ? source.length : nextEnd) : undefined
  if (tight) return tightDeletion(source, from, to, next === undefined || onlyPrefix(next))
  if (next !== undefined && onlyPrefix(next)) to = nextEnd === -1 ? source.length : nextEnd + 1
  else if (from > 0) {
    const previousStart = source.lastIndexOf('\n', from - 2) + 1
    if (onlyPrefix(source.slice(previousStart, from - 1))) from = previousStart
  }
  return {start: from, end: to, text: ''}
}

/**
 * Whole lines `[from, to)` of a tight list deleted: with their own line
 * break, or, for the list's last lines, with the one before them, so the
 * edit stays inside the list.
 */
function tightDeletion(source: string, from: number, to: number, last: boolean): Edit {
  if (!last || from === 0) return {start: from, end: to, text: ''}
  const before = source[from - 2] === '\r' ? 2 : 1
  const after = source[to - 1] !== '\n' ? 0 : source[to - 2] === '\r' ? 2 : 1
  return {start: from - before, end: to - after, text: ''}
}
