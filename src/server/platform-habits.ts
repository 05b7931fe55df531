/**
 * Bodies as the platform writes them (the server's `platformHabits` option):
 * the spec says the platform gives back soft line breaks as trailing
 * backslashes, `_` in text as `\_` and tables with `| --- |` rows. A server
 * that stores each body re-serialised that way lets a client's round trips
 * (push, pull, push) meet what the platform will do to its bodies.
 */
import type {Nodes, Parents, PhrasingContent} from 'mdast'
import {parseKb, stringifyKb} from '../dialect/index.js'

/** `body` as the platform would store it: the canonical dialect with every soft line break made hard. */
export function asPlatformWrites(body: string): string {
  if (body.trim() === '') return body
  const tree = parseKb(body)
  hardenBreaks(tree)
  return stringifyKb(tree)
}

/** Replaces the line breaks inside text nodes (soft breaks) by `break` nodes. */
function hardenBreaks(parent: Parents): void {
  const children: Nodes[] = []
  for (const child of parent.children as Nodes[]) {
    if (child.type === 'text' && child.value.includes('\n')) {
      child.value.split('\n').forEach((line, index) => {
        if (index > 0) children.push({type: 'break'})
        if (line !== '') children.push({type: 'text', value: line} as PhrasingContent)
      })
      continue
    }
    if ('children' in child) hardenBreaks(child)
    children.push(child)
  }
  parent.children = children as typeof parent.children
}
