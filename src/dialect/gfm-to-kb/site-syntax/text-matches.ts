/**
 * Counting a pattern in the text a reader sees (code and inline code are
 * not text nodes), with the place of the first match: the once-per-file
 * warnings say how many places and point at the first.
 */
import type {Parents, Text} from 'mdast'
import {walk} from '../walk.js'

/** A line and column. */
export interface Place {
  line: number
  column: number
}

/** How many matches of `pattern` (global) the text nodes of `tree` hold, and where the first is. */
export function matchesInText(tree: Parents, pattern: RegExp): {count: number; place?: Place} {
  let count = 0
  let place: Place | undefined
  walk(tree, (node) => {
    if (node.type !== 'text') return
    for (const match of node.value.matchAll(pattern)) {
      count++
      place ??= placeIn(node, match.index)
    }
  })
  return place ? {count, place} : {count}
}

/** The line and column of `offset` in a text node's value (lines counted by its line breaks). */
export function placeIn(node: Text, offset: number): Place | undefined {
  const start = node.position?.start
  if (!start) return undefined
  const before = node.value.slice(0, offset)
  const breaks = before.split('\n').length - 1
  return breaks === 0
    ? {line: start.line, column: start.column + offset}
    : {line: start.line + breaks, column: before.length - before.lastIndexOf('\n')}
}
