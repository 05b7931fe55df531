/**
 * The syntax of an attribute list (Python-Markdown's `attr_list`, also
 * kramdown's inline attribute lists): `{#id .class key=value}`, `{: #id}`,
 * `{ .lg .middle }`, `{ width="300" loading=lazy }`. Pure and linear: a
 * hand-written scanner, never a regex that could backtrack on a long line.
 *
 * It is precise on purpose: every item must be an id (`#id`), a class
 * (`.class`) or a `key=value` pair (a bare word, Python-Markdown's
 * boolean attribute, only beside one of those), so prose in braces stays
 * prose: `{placeholder}`, `{"json": 1}`, `{x, y}`, `{}`.
 */

/** What an attribute list says. */
export interface AttrList {
  /** Where it starts (its `{`) and ends (after its `}`), in the text it was read from. */
  start: number
  end: number
  /** Written as kramdown writes it (`{:`). */
  colon: boolean
  id?: string
  classes: string[]
  attributes: Record<string, string>
}

const idChar = /[\w.:-]/
const classStart = /[A-Za-z_-]/
const classChar = /[\w-]/
const keyStart = /[A-Za-z_:]/
const keyChar = /[\w:.-]/
const space = /[ \t]/

/** The attribute list whose `{` is at `start` of `text`, or undefined when the braces there hold no attribute list. */
export function readAttrList(text: string, start: number): AttrList | undefined {
  if (text[start] !== '{') return undefined
  let at = start + 1
  const colon = text[at] === ':'
  if (colon) at++
  const list: AttrList = {start, end: start, colon, classes: [], attributes: {}}
  // Items that say something (an id, a class, a pair); a bare word (a boolean attribute) needs one beside it.
  let strong = 0
  for (;;) {
    while (at < text.length && space.test(text[at]!)) at++
    const char = text[at]
    if (char === '}') break
    let end: number
    if (char === '#' || char === '.') {
      end = run(text, at + 1, char === '#' ? idChar : classChar, char === '#' ? idChar : classStart)
      if (end === at + 1) return undefined
      if (char === '#') list.id = text.slice(at + 1, end)
      else list.classes.push(text.slice(at + 1, end))
      strong++
    } else if (char !== undefined && keyStart.test(char)) {
      const keyEnd = run(text, at, keyChar, keyStart)
      const key = text.slice(at, keyEnd)
      if (text[keyEnd] === '=') {
        const value = readValue(text, keyEnd + 1)
        if (!value) return undefined
        list.attributes[key.toLowerCase()] = value.value
        end = value.end
        strong++
      } else end = keyEnd
    } else return undefined
    // Items are separated by white space, or end at the closing brace.
    if (end < text.length && text[end] !== '}' && !space.test(text[end]!)) return undefined
    at = end
  }
  if (strong === 0) return undefined
  list.end = at + 1
  return list
}

/** The attribute list that ends `text` (white space after it aside), or undefined. */
export function trailingAttrList(text: string): AttrList | undefined {
  let end = text.length
  while (end > 0 && /[ \t\r]/.test(text[end - 1]!)) end--
  if (text[end - 1] !== '}') return undefined
  const start = text.lastIndexOf('{', end - 1)
  if (start === -1) return undefined
  const list = readAttrList(text, start)
  return list && list.end === end ? list : undefined
}

/** The end of the run of `chars` from `at` whose first character is one of `first` (`at` when there is none). */
function run(text: string, at: number, chars: RegExp, first: RegExp): number {
  if (at >= text.length || !first.test(text[at]!)) return at
  let end = at + 1
  while (end < text.length && chars.test(text[end]!)) end++
  return end
}

/** A `"quoted"`, `'quoted'` or bare value from `at`, and where it ends. */
function readValue(text: string, at: number): {value: string; end: number} | undefined {
  const quote = text[at]
  if (quote === '"' || quote === "'") {
    const close = text.indexOf(quote, at + 1)
    if (close === -1) return undefined
    const value = text.slice(at + 1, close)
    return value.includes('\n') ? undefined : {value, end: close + 1}
  }
  let end = at
  while (end < text.length && !/[\s}'"]/.test(text[end]!)) end++
  return end === at ? undefined : {value: text.slice(at, end), end}
}

/** Cheap test: whether `source` may hold an attribute list at all (most bodies do not: the pass is skipped). */
export const mayHoldAttrList = /\{:?[ \t]*(?:[#.][\w-]|[A-Za-z_:][\w:.-]*=)/
