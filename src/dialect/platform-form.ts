/**
 * Bodies as the platform stores them. The spec says the platform gives back
 * soft line breaks as trailing backslashes, `_` in text as `\_` and tables
 * with `| --- |` rows; the canonical form already writes the last two, so
 * the platform's form of a body is its canonical form with every soft line
 * break made hard. The sync engine compares a remote body with ours in this
 * form, and the local server's `platformHabits` option stores bodies so.
 */
import type {Nodes, Parents, PhrasingContent} from 'mdast'
import {parseKb} from './parse.js'
import {stringifyKb} from './stringify.js'

/** `body` (dialect) as the platform would store it: the canonical dialect with every soft line break made hard. */
export function asPlatformStores(body: string): string {
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
