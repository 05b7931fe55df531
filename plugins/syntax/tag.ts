/**
 * The tag grammar of the dialect, shared by the micromark tokenizer (which
 * feeds it one character code at a time) and by the tree transform (which
 * reads the tag back from an `html` node's value).
 *
 * It is deliberately more tolerant than micromark's HTML: unquoted values may
 * hold `/`, `:`, `?`, `=` and `&` (URLs), tag and attribute names are
 * case-insensitive, and a tag never spans lines.
 */
import {asciiAlpha, asciiAlphanumeric} from 'micromark-util-character'
import {codes} from 'micromark-util-symbol'
import type {Code} from 'micromark-util-types'

/** One parsed tag. */
export interface KbTag {
  /** Lower-case tag name. */
  name: string
  closing: boolean
  selfClosing: boolean
  /** Attributes by lower-case name, values with character references decoded. */
  attributes: Record<string, string>
}

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

/** A space or a tab, as a character or as micromark codes it. */
function isSpace(code: Code): boolean {
  return code === codes.space || code === codes.ht || code === codes.horizontalTab || code === codes.virtualSpace
}

/** A line ending or the end, as a character or as micromark codes it. */
function isEnd(code: Code): boolean {
  return code === null || code < codes.horizontalTab || code === codes.lf || code === codes.cr
}

function isNameChar(code: Code): boolean {
  return asciiAlphanumeric(code) || code === codes.dash
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
      return code === codes.slash ? 'slash' : asciiAlpha(code) ? 'name' : 'fail'
    case 'slash':
      return asciiAlpha(code) ? 'name' : 'fail'
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
      return code === codes.quotationMark || code === codes.apostrophe || code === codes.lessThan || code === codes.graveAccent ? 'fail' : 'unquoted'
    case 'afterQuoted':
      return isSpace(code) ? 'between' : code === codes.greaterThan ? 'done' : code === codes.slash ? 'selfClose' : 'fail'
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

/**
 * Read the tag at `index` of `value`; returns the tag and the index after
 * it, or `undefined` when no complete tag starts there.
 */
export function readTag(value: string, index = 0): {tag: KbTag; end: number} | undefined {
  const scanner = createScanner()
  let i = index
  while (i < value.length) {
    const phase = step(scanner, value.charCodeAt(i))
    i++
    if (phase === 'done') return {tag: interpret(value.slice(index, i), scanner.selfClosing), end: i}
    if (phase === 'fail') return undefined
  }
  return undefined
}

/** Parse a complete tag (`raw` as accepted by the scanner) into a {@link KbTag}. */
export function interpret(raw: string, selfClosing: boolean): KbTag {
  const closing = raw.charAt(1) === '/'
  const nameMatch = /^<\/?([A-Za-z][A-Za-z0-9-]*)/.exec(raw)
  const name = nameMatch ? nameMatch[1].toLowerCase() : ''
  const body = raw.slice(nameMatch ? nameMatch[0].length : 1, selfClosing ? -2 : -1)
  const attributes: Record<string, string> = {}
  const re = /([^\s"'<>=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'<>`]+)))?/g
  let match: RegExpExecArray | null
  while ((match = re.exec(body))) {
    const key = match[1].toLowerCase()
    if (key in attributes) continue
    attributes[key] = decodeReferences(match[2] ?? match[3] ?? match[4] ?? '')
  }
  return {name, closing, selfClosing, attributes}
}

const named: Record<string, string> = {amp: '&', quot: '"', lt: '<', gt: '>', apos: "'", nbsp: '\u00A0'}

/** Decode the character references an attribute value may hold. */
export function decodeReferences(value: string): string {
  if (!value.includes('&')) return value
  return value.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]+);/g, (all, ref: string) => {
    if (ref.charAt(0) === '#') {
      const code = ref.charAt(1) === 'x' || ref.charAt(1) === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10)
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all
    }
    return named[ref] ?? all
  })
}

/** Encode a string for a double-quoted attribute value. */
export function encodeAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
}

/** Tags the dialect owns at block level. */
const blockNames = new Set(['div', 'details', 'summary', 'iframe', 'video'])

const imageAttributes = new Set(['src', 'alt', 'width', 'height'])

/** Tags the dialect owns (others stay ordinary HTML). */
export function isDialectTag(tag: KbTag): boolean {
  switch (tag.name) {
    case 'u':
    case 'mark':
    case 'details':
    case 'summary':
    case 'iframe':
    case 'video':
      return true
    case 'img':
      // Only the dialect's sized image; other <img> stay HTML.
      return !tag.closing && 'src' in tag.attributes && Object.keys(tag.attributes).every((key) => imageAttributes.has(key))
    case 'a':
    case 'div':
      return tag.closing || 'data-node' in tag.attributes
    default:
      return false
  }
}

/** Whether a dialect tag opens or closes a block construct. */
export function isBlockTag(tag: KbTag): boolean {
  return blockNames.has(tag.name) && isDialectTag(tag)
}

/**
 * Read `value` as a line of tags and spaces only; returns the tags with
 * their offsets, or `undefined` when anything else is on the line.
 */
export function readTagLine(value: string): Array<{tag: KbTag; start: number; end: number}> | undefined {
  const tags: Array<{tag: KbTag; start: number; end: number}> = []
  let i = 0
  while (i < value.length) {
    const c = value.charAt(i)
    if (c === ' ' || c === '\t') {
      i++
      continue
    }
    const found = readTag(value, i)
    if (!found) return undefined
    tags.push({tag: found.tag, start: i, end: found.end})
    i = found.end
  }
  return tags.length > 0 ? tags : undefined
}
