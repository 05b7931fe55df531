/**
 * A body as the scan reads it may not be the author's text line for line:
 * Hugo's `readfile` and mdBook's includes put other files' lines in it, and a
 * site value's tag over several lines is filled in on one. What
 * the scan reports of such a body (references, conversion messages) is
 * mapped back to the lines the author wrote.
 */
import {severityOfFatal, type Diagnostic} from './diagnostic.js'
import type {ConversionMessage} from './markdown.js'
import {originalLine, type ExpandedBody} from './includes.js'

/** `expanded` (from a body whose lines `lineOf` maps to the author's, after `readfile`) mapped to the author's lines. */
export function withReadfiles(expanded: ExpandedBody, lineOf: number[] | undefined): ExpandedBody {
  if (!lineOf) return expanded
  const count = expanded.body.split('\n').length
  const mapped = Array.from(
    {length: count},
    (_, index) => lineOf[(expanded.lineOf?.[index] ?? index + 1) - 1] ?? index + 1
  )
  return {...expanded, lineOf: mapped}
}

/**
 * The map from the lines of `body` (read from a text whose lines `inner`
 * maps to the author's) to the author's lines, where `outer` maps them to
 * that text's; undefined when neither moved a line.
 */
export function composeLines(
  outer: number[] | undefined,
  inner: number[] | undefined,
  body: string
): number[] | undefined {
  if (!inner) return outer
  if (!outer) return inner
  return Array.from(
    {length: body.split('\n').length},
    (_, index) => inner[(outer[index] ?? index + 1) - 1] ?? index + 1
  )
}

/** `items` of the body `expanded` at the author's lines (an mdBook include's lines are the included file's). */
export function authorLines<T extends {line?: number}>(items: T[], expanded: ExpandedBody): T[] {
  if (!expanded.lineOf) return items
  return items.map((item) => (item.line ? {...item, line: originalLine(expanded, item.line)} : item))
}

/** A conversion message of the body of `file` (`expanded` from the author's text) as a diagnostic at the author's line. */
export function diagnosticOf(message: ConversionMessage, file: string, expanded: ExpandedBody): Diagnostic {
  return {
    severity: severityOfFatal(message.fatal),
    file,
    ...(message.line ? {line: originalLine(expanded, message.line)} : {}),
    ...(message.column ? {column: message.column} : {}),
    message: message.message,
    ...(message.ruleId ? {rule: message.ruleId} : {})
  }
}
