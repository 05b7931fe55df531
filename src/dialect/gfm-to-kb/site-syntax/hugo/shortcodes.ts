/**
 * Hugo's shortcode syntax, read in one linear scan of a line: `{{< name
 * args >}}` (inner content passed as written), `{{% name args %}}` (inner
 * content rendered as Markdown), closing `{{< /name >}}`, self-closing
 * `{{< name />}}`, arguments positional or named (`key=value`), quoted with
 * `"…"` (backslash escapes) or `` `…` `` (raw), and the escaped form
 * `{{</* name *\/>}}` that Hugo shows as `{{< name >}}`. A `-` trim marker
 * (`{{<- name ->}}`) is accepted and ignored.
 */

/** One shortcode tag found in a text. */
export interface Shortcode {
  /** Offset of `{{` and just past `}}`. */
  start: number
  end: number
  /** `<` or `%`: how Hugo renders the inner content (as written, or as Markdown). */
  delimiter: '<' | '%'
  /** The name, lower-cased (`blocks/cover`), or '' for a tag without one. */
  name: string
  closing: boolean
  selfClosing: boolean
  /** `{{</* … *\/>}}`: shown to readers as the tag without the comment marks. */
  escaped: boolean
  positional: string[]
  named: Record<string, string>
}

const opening = /\{\{([<%])/g
const maxTagLength = 2000

/** Every shortcode tag of `text`, in order (a malformed one, never closed by `>}}`, is none). */
export function findShortcodes(text: string): Shortcode[] {
  const found: Shortcode[] = []
  opening.lastIndex = 0
  for (let match = opening.exec(text); match; match = opening.exec(text)) {
    const tag = readTag(text, match.index, match[1] as '<' | '%')
    if (!tag) continue
    found.push(tag)
    opening.lastIndex = tag.end
  }
  return found
}

/** The escaped form `{{</* x *\/>}}` as Hugo shows it: `{{< x >}}`. */
export function unescapedText(text: string, tag: Shortcode): string {
  const inner = text
    .slice(tag.start + 3, tag.end - 3)
    .replace(/^\/\*/, '')
    .replace(/\*\/$/, '')
  return `{{${tag.delimiter}${inner}${tag.delimiter === '<' ? '>' : '%'}}}`
}

/** Reads the tag starting at `start` (`{{<` or `{{%`), or undefined when it is not one. */
function readTag(text: string, start: number, delimiter: '<' | '%'): Shortcode | undefined {
  const close = delimiter === '<' ? '>}}' : '%}}'
  let at = start + 3
  if (text[at] === '-') at++
  const escaped = text.startsWith('/*', at)
  if (escaped) at += 2
  at = skipSpace(text, at)
  const closing = text[at] === '/'
  if (closing) at = skipSpace(text, at + 1)
  // `{{< name/>}}`: the slash closes the tag, it is no part of the name.
  const name = (/^[A-Za-z_][\w./-]*/.exec(text.slice(at, at + 200))?.[0] ?? '').replace(/\/+$/, '')
  at += name.length
  const tag: Shortcode = {
    start,
    end: 0,
    delimiter,
    name: name.toLowerCase(),
    closing,
    selfClosing: false,
    escaped,
    positional: [],
    named: {}
  }
  for (;;) {
    at = skipSpace(text, at)
    // A tag is short; one never closed is no tag, found without reading the rest of a long line for each `{{<`.
    if (at >= text.length || at - start > maxTagLength) return undefined
    const end = tagEnd(text, at, close, escaped)
    if (end !== undefined) {
      tag.end = end
      return tag
    }
    if (text[at] === '/' && tagEnd(text, skipSpace(text, at + 1), close, escaped) !== undefined) {
      tag.selfClosing = true
      at++
      continue
    }
    const next = readArgument(text, at, tag)
    if (next === at) return undefined
    at = next
  }
}

/** Just past the tag's end when it ends at `at` (`>}}`, `->}}`, `*\/>}}` for an escaped one), else undefined. */
function tagEnd(text: string, at: number, close: string, escaped: boolean): number | undefined {
  let from = at
  if (escaped) {
    if (!text.startsWith('*/', from)) return undefined
    from += 2
  }
  if (text[from] === '-' && text.startsWith(close, from + 1)) return from + 1 + close.length
  return text.startsWith(close, from) ? from + close.length : undefined
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && /\s/.test(text[at]!)) at++
  return at
}

/** Reads one argument at `at` into `tag`; answers where it ends (`at` itself when there is none). */
function readArgument(text: string, at: number, tag: Shortcode): number {
  const key = /^([A-Za-z_][\w-]*)=/.exec(text.slice(at, at + 100))
  const valueAt = key ? at + key[0].length : at
  const [value, end] = readValue(text, valueAt)
  if (end === valueAt) return at
  if (key) tag.named[key[1]!.toLowerCase()] = value
  else tag.positional.push(value)
  return end
}

/** A quoted or bare value at `at` and where it ends. */
function readValue(text: string, at: number): [string, number] {
  const quote = text[at]
  if (quote === '"') {
    let value = ''
    for (let index = at + 1; index < text.length; index++) {
      const char = text[index]!
      if (char === '\\' && index + 1 < text.length) value += text[++index]
      else if (char === '"') return [value, index + 1]
      else value += char
    }
    return ['', at]
  }
  if (quote === '`') {
    const end = text.indexOf('`', at + 1)
    return end === -1 ? ['', at] : [text.slice(at + 1, end), end + 1]
  }
  let end = at
  while (end < text.length && !/\s/.test(text[end]!) && !/^(?:[>%]\}\}|\*\/)/.test(text.slice(end, end + 3))) end++
  if (text.startsWith('/>}}', end - 1) || text.startsWith('/%}}', end - 1)) end--
  return [text.slice(at, end), end]
}
