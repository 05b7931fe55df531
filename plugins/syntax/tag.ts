/**
 * The tag grammar of the dialect, shared by the micromark tokenizer (which
 * feeds it one character code at a time) and by the tree transform (which
 * reads the tag back from an `html` node's value).
 *
 * It is deliberately more tolerant than micromark's HTML: unquoted values may
 * hold `/`, `:`, `?`, `=` and `&` (URLs), tag and attribute names are
 * case-insensitive, and a tag never spans lines.
 */
import {codes} from 'micromark-util-symbol'
import {createScanner, resetScanner, step, type TagScanner} from './scanner.js'

/** One parsed tag. */
export interface KbTag {
  /** Lower-case tag name. */
  name: string
  closing: boolean
  selfClosing: boolean
  /** Attributes by lower-case name, values with character references decoded. */
  attributes: Record<string, string>
}
/**
 * Read the tag at `index` of `value`; returns the tag and the index after
 * it, or `undefined` when no complete tag starts there.
 */
export function readTag(value: string, index = 0): {tag: KbTag; end: number} | undefined {
  const scanner = createScanner()
  const end = scanTag(scanner, value, index)
  return end < 0 ? undefined : {tag: interpret(value.slice(index, end), scanner.selfClosing), end}
}

/**
 * Scan the tag at `index` of `value` with `scanner` (reset first, so that
 * a line reuses one); returns the index after it, or -1 when no complete
 * tag starts there.
 */
function scanTag(scanner: TagScanner, value: string, index: number): number {
  resetScanner(scanner)
  for (let i = index; i < value.length;) {
    const phase = step(scanner, value.charCodeAt(i))
    i++
    if (phase === 'done') return i
    if (phase === 'fail') return -1
  }
  return -1
}

/**
 * Tags already interpreted, by their text (one map per `selfClosing`):
 * `interpret` is a pure function of its arguments, and a body repeats the
 * same few tags (a line of 17,000 `<details>` is read by the tokenizer and
 * again by the transform), so each distinct tag is parsed once and shared.
 * Shared tags are frozen, so that no reader can change another's. Bounded:
 * cleared when full.
 */
const interpreted = [new Map<string, KbTag>(), new Map<string, KbTag>()]

/** Most distinct tags remembered. */
const maxInterpreted = 256

/** Longest tag text remembered (longer ones are rare, and would cost their size in memory). */
const maxInterpretedLength = 256

/**
 * Parse a complete tag (`raw` as accepted by the scanner) into a
 * {@link KbTag}. The result is frozen and may be shared with other calls
 * on the same text.
 */
export function interpret(raw: string, selfClosing: boolean): KbTag {
  if (raw.length > maxInterpretedLength) return interpretFresh(raw, selfClosing)
  const memo = interpreted[selfClosing ? 1 : 0]
  let tag = memo.get(raw)
  if (tag === undefined) {
    if (memo.size >= maxInterpreted) memo.clear()
    tag = interpretFresh(raw, selfClosing)
    memo.set(detached(raw), tag)
  }
  return tag
}

/**
 * A copy of `value` that shares no memory with the string it may be a
 * slice of: a remembered slice of a body would keep the whole body alive.
 */
function detached(value: string): string {
  return value.split('').join('')
}

/** {@link interpret} without the memo; frozen all the same, so that no caller relies on changing a tag. */
function interpretFresh(raw: string, selfClosing: boolean): KbTag {
  const closing = raw.charAt(1) === '/'
  const nameMatch = /^<\/?([A-Za-z][A-Za-z0-9-]*)/.exec(raw)
  const name = nameMatch ? nameMatch[1].toLowerCase() : ''
  const body = raw.slice(nameMatch ? nameMatch[0].length : 1, selfClosing ? -'/>'.length : -'>'.length)
  const attributes: Record<string, string> = {}
  const re = /([^\s"'<>=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'<>`]+)))?/g
  let match: RegExpExecArray | null
  while ((match = re.exec(body))) {
    const key = match[1].toLowerCase()
    if (key in attributes) continue
    attributes[key] = decodeReferences(match[2] ?? match[3] ?? match[4] ?? '')
  }
  Object.freeze(attributes)
  return Object.freeze({name, closing, selfClosing, attributes})
}

const named: Record<string, string> = {amp: '&', quot: '"', lt: '<', gt: '>', apos: "'", nbsp: '\u00A0'}

/** Decode the character references an attribute value may hold. */
export function decodeReferences(value: string): string {
  if (!value.includes('&')) return value
  return value.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]+);/g, (all, ref: string) => {
    if (ref.charAt(0) === '#') {
      const code =
        ref.charAt(1) === 'x' || ref.charAt(1) === 'X'
          ? Number.parseInt(ref.slice(2), 16)
          : Number.parseInt(ref.slice(1), 10)
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
/** The one of `recent` whose text `value` holds at `index`, if any. */
function knownAt(
  recent: Array<{raw: string; tag: KbTag}>,
  value: string,
  index: number
): {raw: string; tag: KbTag} | undefined {
  for (const known of recent) if (value.startsWith(known.raw, index)) return known
  return undefined
}

/**
 * The tags of a line of tags, as parallel lists (the `i`th tag is
 * `raws[i]`, from `starts[i]` to `ends[i]` of the line): a line may hold
 * tens of thousands of tags, and lists of numbers cost the collector
 * nothing, where an object per tag would.
 */
export interface TagLine {
  tags: KbTag[]
  /** The text of each tag. */
  raws: string[]
  starts: number[]
  ends: number[]
}

/**
 * Read `value` as a line of tags and spaces only; returns its tags with
 * their offsets, or `undefined` when anything else is on the line.
 */
export function readTagLine(value: string): TagLine | undefined {
  const line: TagLine = {tags: [], raws: [], starts: [], ends: []}
  const scanner = createScanner()
  // The last two distinct tags read: a tag that starts with the very text of
  // one is that tag (the scanner stops at the first `>` that ends a tag, so
  // the same text scans the same), and a line of thousands of tags repeats
  // one or two. Its text is shared too: strings do not change.
  const recent: Array<{raw: string; tag: KbTag}> = []
  let i = 0
  while (i < value.length) {
    const c = value.charCodeAt(i)
    if (c === codes.space || c === codes.ht) {
      i++
      continue
    }
    let known = knownAt(recent, value, i)
    if (!known) {
      const end = scanTag(scanner, value, i)
      if (end < 0) return undefined
      const raw = value.slice(i, end)
      known = {raw, tag: interpret(raw, scanner.selfClosing)}
      if (recent.unshift(known) > 2) recent.pop()
    }
    line.tags.push(known.tag)
    line.raws.push(known.raw)
    line.starts.push(i)
    line.ends.push((i += known.raw.length))
  }
  return line.tags.length > 0 ? line : undefined
}
