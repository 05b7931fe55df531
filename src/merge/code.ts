/**
 * A fenced code block the platform changed only inside: its lines are
 * replaced between the author's own fences, so the fence's marker, length
 * and info string stay, and the lines the platform did not change stay as
 * the author wrote them.
 */
import type {Nodes} from 'mdast'
import type {SourceRange} from './blocks.js'
import {continuationPrefix, lineBefore, type Edit} from './splice.js'
import {diffKeys} from './block-diff.js'

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
  const written = (line: string): string => (line === '' ? prefix.trimEnd() : prefix + line)
  const lines = linesOf(remote.value)
  const own = source
    .slice(openEnd + 1, closeStart)
    .replace(/\r?\n$/, '')
    .split(/\r?\n/)
  const bases = linesOf(base.value)
  const kept =
    own.length === bases.length ? keptLines({bases, remotes: lines, authors: own}, written) : lines.map(written)
  return {start: openEnd + 1, end: closeStart, text: kept.map((line) => line + '\n').join('')}
}

/** A code block's lines: as the conversion read them (base), as the platform has them, as the author wrote them. */
interface CodeLines {
  bases: string[]
  remotes: string[]
  authors: string[]
}

/**
 * The remote lines, those the platform did not change as the author wrote
 * them (a Hugo shortcode escaped in a code sample stays escaped).
 */
function keptLines({bases, remotes, authors}: CodeLines, written: (line: string) => string): string[] {
  const out: string[] = []
  let at = 0
  for (const hunk of diffKeys(bases, remotes)) {
    out.push(...authors.slice(at, hunk.baseStart), ...remotes.slice(hunk.remoteStart, hunk.remoteEnd).map(written))
    at = hunk.baseEnd
  }
  out.push(...authors.slice(at))
  return out
}

/** A code value's lines (none for an empty one). */
function linesOf(value: string): string[] {
  return value === '' ? [] : value.split('\n')
}
