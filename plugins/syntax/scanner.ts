/**
 * The character-level scanner of the dialect's tag grammar, fed one
 * character code at a time: by the micromark tokenizer (micromark's codes)
 * and by `tag.ts` reading a tag back from text (`charCodeAt`).
 *
 * It is deliberately more tolerant than micromark's HTML: unquoted values may
 * hold `/`, `:`, `?`, `=` and `&` (URLs), and a tag never spans lines.
 */
import {codes} from 'micromark-util-symbol'
import type {Code} from 'micromark-util-types'

/** Scanner states; `done` and `fail` are terminal. */
type Phase =
  | 'start'
  | 'lt'
  | 'slash'
  | 'name'
  | 'between'
  | 'attrName'
  | 'afterAttrName'
  | 'beforeValue'
  | 'double'
  | 'single'
  | 'unquoted'
  | 'afterQuoted'
  | 'selfClose'
  | 'done'
  | 'fail'

/** Incremental scanner state: feed characters with {@link step}. */
export interface TagScanner {
  phase: Phase
  /** Characters of the tag so far (the tokenizer builds the tag's text itself). */
  length: number
  selfClosing: boolean
}

/** Longest tag accepted: bounds the work spent on a `<` that is not a tag. */
export const maxTagLength = 8192

/** Create a fresh scanner. */
export function createScanner(): TagScanner {
  return {phase: 'start', length: 0, selfClosing: false}
}

/** Make `scanner` fresh again: a line of tags reads them all with one scanner. */
export function resetScanner(scanner: TagScanner): void {
  scanner.phase = 'start'
  scanner.length = 0
  scanner.selfClosing = false
}

/** A space or a tab, as a character or as micromark codes it. */
function isSpace(code: Code): boolean {
  return code === codes.space || code === codes.ht || code === codes.horizontalTab || code === codes.virtualSpace
}

/** A line ending or the end, as a character or as micromark codes it. */
function isEnd(code: Code): boolean {
  return code === null || code < codes.horizontalTab || code === codes.lf || code === codes.cr
}

/**
 * An ASCII letter. Compared as numbers: micromark-util-character's
 * `asciiAlpha` tests a RegExp on a one-character string made per call, one
 * allocation per character of every tag.
 */
function isAsciiAlpha(code: Code): boolean {
  return (
    code !== null &&
    ((code >= codes.uppercaseA && code <= codes.uppercaseZ) || (code >= codes.lowercaseA && code <= codes.lowercaseZ))
  )
}

function isNameChar(code: Code): boolean {
  return isAsciiAlpha(code) || (code !== null && code >= codes.digit0 && code <= codes.digit9) || code === codes.dash
}

function isAttrNameChar(code: Code): boolean {
  return !(
    isSpace(code) ||
    code === codes.quotationMark ||
    code === codes.apostrophe ||
    code === codes.lessThan ||
    code === codes.greaterThan ||
    code === codes.equalsTo ||
    code === codes.slash
  )
}

/**
 * Feed one character code (a micromark code, or a `charCodeAt`; `null` for
 * the end) to the scanner; returns the new phase (`done` once `>` closed
 * the tag, `fail` when it cannot be a tag).
 */
export function step(scanner: TagScanner, code: Code): Phase {
  const phase = next(scanner.phase, code)
  if (phase !== 'fail') scanner.length++
  if (phase === 'selfClose') scanner.selfClosing = true
  if (scanner.length > maxTagLength) scanner.phase = 'fail'
  else scanner.phase = phase
  return scanner.phase
}

function next(phase: Phase, code: Code): Phase {
  if (isEnd(code)) return 'fail'
  switch (phase) {
    case 'start':
      return code === codes.lessThan ? 'lt' : 'fail'
    case 'lt':
      return code === codes.slash ? 'slash' : isAsciiAlpha(code) ? 'name' : 'fail'
    case 'slash':
      return isAsciiAlpha(code) ? 'name' : 'fail'
    case 'name':
      return isNameChar(code) ? 'name' : afterToken(code)
    case 'between':
      return isSpace(code) ? 'between' : isAttrNameChar(code) ? 'attrName' : afterToken(code)
    case 'attrName':
      if (isAttrNameChar(code)) return 'attrName'
      if (code === codes.equalsTo) return 'beforeValue'
      return afterToken(code) === 'between' ? 'afterAttrName' : afterToken(code)
    case 'afterAttrName':
      if (isSpace(code)) return 'afterAttrName'
      if (code === codes.equalsTo) return 'beforeValue'
      return isAttrNameChar(code) ? 'attrName' : afterToken(code)
    case 'beforeValue':
      if (isSpace(code)) return 'beforeValue'
      if (code === codes.quotationMark) return 'double'
      if (code === codes.apostrophe) return 'single'
      return code === codes.greaterThan || code === codes.lessThan || code === codes.graveAccent ? 'fail' : 'unquoted'
    case 'double':
      return code === codes.quotationMark ? 'afterQuoted' : 'double'
    case 'single':
      return code === codes.apostrophe ? 'afterQuoted' : 'single'
    case 'unquoted':
      if (isSpace(code)) return 'between'
      if (code === codes.greaterThan) return 'done'
      return code === codes.quotationMark ||
        code === codes.apostrophe ||
        code === codes.lessThan ||
        code === codes.graveAccent
        ? 'fail'
        : 'unquoted'
    case 'afterQuoted':
      return isSpace(code)
        ? 'between'
        : code === codes.greaterThan
          ? 'done'
          : code === codes.slash
            ? 'selfClose'
            : 'fail'
    case 'selfClose':
      return code === codes.greaterThan ? 'done' : 'fail'
    default:
      return 'fail'
  }
}

/** What may follow a name or a space: more space, the end, or `/>`. */
function afterToken(code: Code): Phase {
  if (isSpace(code)) return 'between'
  if (code === codes.greaterThan) return 'done'
  if (code === codes.slash) return 'selfClose'
  return 'fail'
}
