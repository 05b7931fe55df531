/**
 * The last resort of the parsers, which never throw: a source a parser
 * fails on (a bug, not bad input: bad input becomes messages) is kept whole
 * as one leaf with a message, so one body cannot stop a run over many.
 */
import type {Root} from 'mdast'
import type {Position} from 'unist'
import type {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {nestingRule, type NestingLeaf} from '../../plugins/depth.js'

/** The rule id of a source the parser failed on. */
export const parseFailedRule = 'kb-parse-failed'

// What a parse could not keep as written: a body with these messages cannot be converted without loss.
const unconvertibleRules = new Set([nestingRule, parseFailedRule])

/** Whether `message` says the parse could not keep the source (nesting past the limit, a parser failure). */
export function isUnconvertible(message: VFileMessage): boolean {
  return unconvertibleRules.has(message.ruleId ?? '')
}

/**
 * `parse()`, or when it throws, a tree holding `source` as one `leaf` node
 * and a `kb-parse-failed` message on `file` (the messages `parse` added are
 * dropped with its tree).
 */
export function parseGuarded(source: string, file: VFile | undefined, leaf: NestingLeaf, parse: () => Root): Root {
  const before = file?.messages.length ?? 0
  try {
    return parse()
  } catch (error) {
    file?.messages.splice(before)
    const place = wholeSource(source)
    const reason = `The body could not be parsed (${error instanceof Error ? error.message : String(error)}); it is kept as text. Please report this with the body`
    file?.message(reason, {place: place.start, ruleId: parseFailedRule, source: 'kbsync'})
    return {type: 'root', children: source === '' ? [] : [{type: leaf, value: source, position: place}]}
  }
}

/** The position of a whole source. */
function wholeSource(source: string): Position {
  const lines = source.split('\n')
  return {
    start: {line: 1, column: 1, offset: 0},
    end: {line: lines.length, column: lines[lines.length - 1]!.length + 1, offset: source.length}
  }
}
