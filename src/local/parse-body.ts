/**
 * Parsing one body for the scan: the dialect tree (positions dropped, as the
 * engine keeps it), the conversion's messages and the local references.
 * Shared by the scan's own thread and the parse workers.
 */
import type {Root} from 'mdast'
import type {BodyFacts} from './body-cache.js'
import {dropPositions, toKbTree} from './markdown.js'
import {collectLocalRefs} from './references.js'

/** A body to parse: its text and the file it comes from. */
export interface BodySource {
  file: string
  body: string
}

/** A parsed body. */
export interface ParsedBody extends BodyFacts {
  tree: Root
}

/** Parses `source` the way the scan reads a body. */
export function parseBody(source: BodySource): ParsedBody {
  const {tree, messages} = toKbTree(source.body, source.file)
  const refs = collectLocalRefs(tree)
  dropPositions(tree)
  return {tree, messages, refs}
}
