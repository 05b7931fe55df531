/**
 * The first and the last resort of the parsers, which never throw: a
 * source over the parse budget (`overBudget` in src/trust: a parse would
 * cost more than linear time or memory) is not parsed, and a source a
 * parser fails on (a bug, not bad input: bad input becomes messages) is
 * kept; either is kept whole as one leaf with a message, so one body cannot
 * stop or stall a run over many.
 */
import type {Root} from 'mdast'
import type {Position} from 'unist'
import type {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {nestingRule, type NestingLeaf} from '../../plugins/depth.js'
import {overBudget} from '../trust/parse-budget.js'

/** The rule id of a source the parser failed on. */
export const parseFailedRule = 'kb-parse-failed'

/** The rule id of a source over the parse budget, kept as text unparsed. */
export const overBudgetRule = 'kb-over-budget'

// What a parse could not keep as written: a body with these messages cannot be converted without loss.
const unconvertibleRules = new Set([nestingRule, parseFailedRule, overBudgetRule])

/** Whether `message` says the parse could not keep the source (nesting past the limit, a parser failure). */
export function isUnconvertible(message: VFileMessage): boolean {
  return unconvertibleRules.has(message.ruleId ?? '')
}

/**
 * `parse()`, or a tree holding `source` as one `leaf` node with a message
 * on `file`: `kb-over-budget` (or `kb-nesting-too-deep` for lists nested
 * past the limit by indentation) when `source` is over the parse budget,
 * without calling `parse`; `kb-parse-failed` when `parse` throws (the
 * messages it added are dropped with its tree).
 */
export function parseGuarded(source: string, file: VFile | undefined, leaf: NestingLeaf, parse: () => Root): Root {
  const excess = overBudget(source)
  if (excess) {
    const reason = `The body is not parsed: ${excess.reason}; it is kept as text. Shorten it or split it into articles`
    return keptWhole(source, file, leaf, {
      reason,
      line: excess.line,
      ruleId: excess.nesting ? nestingRule : overBudgetRule
    })
  }
  const before = file?.messages.length ?? 0
  try {
    return parse()
  } catch (error) {
    file?.messages.splice(before)
    const reason = `The body could not be parsed (${error instanceof Error ? error.message : String(error)}); it is kept as text. Please report this with the body`
    return keptWhole(source, file, leaf, {reason, line: 1, ruleId: parseFailedRule})
  }
}

/** A tree holding `source` as one `leaf`, and the message that says why on `file` (at `line`). */
function keptWhole(
  source: string,
  file: VFile | undefined,
  leaf: NestingLeaf,
  why: {reason: string; line: number; ruleId: string}
): Root {
  const place = wholeSource(source)
  file?.message(why.reason, {place: {line: why.line, column: 1}, ruleId: why.ruleId, source: 'kbsync'})
  return {type: 'root', children: source === '' ? [] : [{type: leaf, value: source, position: place}]}
}

/** The position of a whole source. */
function wholeSource(source: string): Position {
  const lines = source.split('\n')
  return {
    start: {line: 1, column: 1, offset: 0},
    end: {line: lines.length, column: lines[lines.length - 1]!.length + 1, offset: source.length}
  }
}
