/**
 * The tag grammar of the dialect, shared by the micromark tokenizer (which
 * feeds it one character code at a time) and by the tree transform (which
 * reads the tag back from an `html` node's value).
 *
 * It is deliberately more tolerant than micromark's HTML: unquoted values may
 * hold `/`, `:`, `?`, `=` and `&` (URLs), tag and attribute names are
 * case-insensitive, and a tag never spans lines.
 */

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

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t'
}

function isLetter(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

function isNameChar(c: string): boolean {
  return isLetter(c) || (c >= '0' && c <= '9') || c === '-'
}

function isAttrNameChar(c: string): boolean {
  return !(isSpace(c) || c === '"' || c === "'" || c === '<' || c === '>' || c === '=' || c === '/' || c === '\n' || c === '\r')
}

/**
 * Feed one character (`null` for a line ending or the end of input) to the
 * scanner; returns the new phase (`done` once `>` closed the tag, `fail` when
 * it cannot be a tag).
 */
export function step(scanner: TagScanner, c: string | null): Phase {
  const phase = next(scanner.phase, c)
  if (phase !== 'fail' && c !== null) scanner.length++
  if (phase === 'selfClose') scanner.selfClosing = true
  if (scanner.length > maxTagLength) scanner.phase = 'fail'
  else scanner.phase = phase
  return scanner.phase
}

function next(phase: Phase, c: string | null): Phase {
  if (c === null || c === '\n' || c === '\r') return 'fail'
  switch (phase) {
    case 'start':
      return c === '<' ? 'lt' : 'fail'
    case 'lt':
      return c === '/' ? 'slash' : isLetter(c) ? 'name' : 'fail'
    case 'slash':
      return isLetter(c) ? 'name' : 'fail'
    case 'name':
      return isNameChar(c) ? 'name' : afterToken(c)
    case 'between':
      return isSpace(c) ? 'between' : isAttrNameChar(c) ? 'attrName' : afterToken(c)
    case 'attrName':
      if (isAttrNameChar(c)) return 'attrName'
      if (c === '=') return 'beforeValue'
      return afterToken(c) === 'between' ? 'afterAttrName' : afterToken(c)
    case 'afterAttrName':
      if (isSpace(c)) return 'afterAttrName'
      if (c === '=') return 'beforeValue'
      return isAttrNameChar(c) ? 'attrName' : afterToken(c)
    case 'beforeValue':
      if (isSpace(c)) return 'beforeValue'
      if (c === '"') return 'double'
      if (c === "'") return 'single'
      return c === '>' || c === '<' || c === '`' ? 'fail' : 'unquoted'
    case 'double':
      return c === '"' ? 'afterQuoted' : 'double'
    case 'single':
      return c === "'" ? 'afterQuoted' : 'single'
    case 'unquoted':
      if (isSpace(c)) return 'between'
      if (c === '>') return 'done'
      return c === '"' || c === "'" || c === '<' || c === '`' ? 'fail' : 'unquoted'
    case 'afterQuoted':
      return isSpace(c) ? 'between' : c === '>' ? 'done' : c === '/' ? 'selfClose' : 'fail'
    case 'selfClose':
      return c === '>' ? 'done' : 'fail'
    default:
      return 'fail'
  }
}

/** What may follow a name or a space: more space, the end, or `/>`. */
function afterToken(c: string): Phase {
  if (isSpace(c)) return 'between'
  if (c === '>') return 'done'
  if (c === '/') return 'selfClose'
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
    const phase = step(scanner, value.charAt(i))
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
