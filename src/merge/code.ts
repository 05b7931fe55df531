/**
 * A fenced code block the platform changed only inside: its lines are
 * replaced between the author's own fences, so the fence's marker, length
 * and info string stay.
 */
import type {Nodes} from 'mdast'
import type {SourceRange} from './blocks.js'
import {continuationPrefix, lineBefore, type Edit} from './splice.js'

const opening = /^([ \t>]*?)(`{3,}|~{3,})/

/**
 * The edit that replaces a fenced code block's content, when both blocks
 * are code with the same language and meta, the base block is fenced in the
 * source and the new content cannot close its fence; undefined otherwise.
 */
export function codeContentEdit(source: string, range: SourceRange, base: Nodes, remote: Nodes): Edit | undefined {
  if (base.type !== 'code' || remote.type !== 'code') return undefined
  if (base.lang !== remote.lang || base.meta !== remote.meta || range.endLine <= range.startLine) return undefined
  const lineStart = range.start - lineBefore(source, range.start).length
  const fence = opening.exec(source.slice(lineStart, range.end))
  if (!fence) return undefined
  const marker = fence[2]!
  const openEnd = source.indexOf('\n', range.start)
  const closeStart = source.lastIndexOf('\n', range.end - 1) + 1
  const closing = source.slice(closeStart, range.end)
  const closes = (line: string): boolean => new RegExp(`^[ \\t>]*${marker[0]}{${marker.length},}[ \\t]*$`).test(line)
  if (openEnd === -1 || openEnd >= closeStart || !closes(closing)) return undefined
  if (remote.value.split('\n').some(closes)) return undefined
  const prefix = continuationPrefix(fence[1]!)
  const lines = remote.value === '' ? [] : remote.value.split('\n')
  const text = lines.map((line) => (line === '' ? prefix.trimEnd() : prefix + line) + '\n').join('')
  return {start: openEnd + 1, end: closeStart, text}
}
