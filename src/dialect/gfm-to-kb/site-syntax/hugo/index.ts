/**
 * Hugo shortcodes made what the site shows, line by line before the parse
 * (Hugo, too, reads them before Markdown): hint blocks, expanding blocks,
 * tabs as labelled sections, code, figures, videos, link targets (see
 * `families.ts` for the names and `tags.ts` for what each becomes). The
 * content between a pair is parsed where it stands. Inside fenced code and
 * inline code nothing is converted; the escaped form `{{</* x *\/>}}` is
 * shown as `{{< x >}}` there, and as inline code elsewhere (readers of the
 * site see the tag: the author wrote it as an example). An unknown
 * shortcode is unwrapped (its content kept) with one warning per name
 * saying which arguments were lost.
 */
import {FenceTracker, splitPrefix, type SiteSource} from '../lines.js'
import {familyOf} from './families.js'
import {Losses, Output, places} from './output.js'
import {findShortcodes, unescapedText, type Shortcode} from './shortcodes.js'
import {closeTag, openTag, type Pass} from './tags.js'
import {codeSpans, inSpan} from './code-spans.js'
import {addressAround} from './addresses.js'

// A closing tag: `{{< /name >}}`, `{{% /name %}}` (trim marks allowed).
const closingTags = /\{\{[<%]-?[ \t]*\/[ \t]*([A-Za-z_][\w./-]*)/g

/** Whether `markdown` may hold a shortcode: the cheap test before the pass. */
export function mayHoldShortcodes(markdown: string): boolean {
  return markdown.includes('{{<') || markdown.includes('{{%')
}

/** Rewrites the shortcodes of `site` (see the module comment). */
export function rewriteHugoShortcodes(site: SiteSource): void {
  const paired = new Set<string>()
  for (const line of site.lines) {
    if (!line.includes('/')) continue
    for (const match of line.matchAll(closingTags)) paired.add(match[1]!.toLowerCase())
  }
  const pass: Pass = {
    site,
    out: new Output(),
    stack: [],
    paired,
    losses: new Losses(),
    fences: new FenceTracker(),
    joinBudget: 1 << 20
  }
  for (let index = 0; index < site.lines.length; index++) index = rewriteLine(pass, index)
  pass.out.endLine()
  for (let open = pass.stack.pop(); open; open = pass.stack.pop()) {
    pass.losses.add('kb-shortcode-unclosed', open.name, open.line, 1, (count) => {
      return `The shortcode \`${open.name}\` opened here (${places(count)}) is never closed; it runs to the end of the file. Add \`{{< /${open.name} >}}\` where it ends.`
    })
    closeTag(pass, open)
  }
  pass.out.endLine()
  pass.losses.report(site)
  site.lines = pass.out.lines
  site.origin = pass.out.origin
}

/** Rewrites the line at `index` (and the lines a code block takes); answers the index of the last line used. */
function rewriteLine(pass: Pass, index: number): number {
  const {site, out} = pass
  const line = site.lines[index]!
  const [prefix, rest] = splitPrefix(line)
  out.startLine(site.origin[index]!, prefix)
  const dropping = pass.stack.some((open) => open.family === 'comment')
  if (pass.fences.isCode(rest)) {
    if (!dropping) out.push(line.includes('/*') ? unescapeAll(line) : line)
    return index
  }
  if (!line.includes('{{')) {
    if (!dropping) out.push(line)
    return index
  }
  let {text, index: at} = joinTagLines(pass, index)
  for (;;) {
    const next = rewriteText(pass, text, at)
    if (!next) break
    ;({text, index: at} = next)
    out.startLine(site.origin[at]!, prefix)
  }
  out.endLine(!dropping && text.trim() === '' && line.trim() === '')
  return at
}

/**
 * Writes `text` (the line at `index`, or the rest of it) with its tags
 * converted; when a tag took the following lines as code, answers the rest
 * of the line where that code ended, to be written next.
 */
function rewriteText(pass: Pass, text: string, index: number): {text: string; index: number} | undefined {
  const {out} = pass
  const spans = codeSpans(text)
  let last = 0
  for (const tag of findShortcodes(text)) {
    const dropping = pass.stack.some((open) => open.family === 'comment')
    if (inSpan(spans, tag.start)) {
      if (!tag.escaped) continue
      if (!dropping) out.add(text.slice(last, tag.start) + unescapedText(text, tag))
      last = tag.end
      continue
    }
    // An unknown value heading an address leaves no address: the link is its text, an autolink goes.
    const address =
      !tag.escaped && familyOf(tag.name) === 'param'
        ? addressAround(text, tag, last, pass.site.lines[index - 1])
        : undefined
    if (!dropping) out.add(text.slice(last, address?.open ?? tag.start) + (address?.text ?? ''))
    last = address?.close ?? tag.end
    if (tag.escaped) {
      if (!dropping) out.add('`` ' + unescapedText(text, tag) + ' ``')
      continue
    }
    if (dropping && !(tag.name === 'comment')) continue
    const taken = convertTag(pass, tag, text, index)
    if (taken) return taken
  }
  if (!pass.stack.some((open) => open.family === 'comment')) out.add(text.slice(last))
  return undefined
}

/** Converts one tag; answers where to go on when it took lines as code. */
function convertTag(
  pass: Pass,
  tag: Shortcode,
  text: string,
  index: number
): {text: string; index: number} | undefined {
  if (tag.closing) {
    const at = pass.stack.findLastIndex((open) => open.name === tag.name)
    if (at === -1) return undefined
    while (pass.stack.length > at) closeTag(pass, pass.stack.pop()!)
    return undefined
  }
  const family = familyOf(tag.name)
  const column = tag.start + 1
  if (tag.name === '') {
    // `{{< >}}` names no shortcode: Hugo stops the build on it ("shortcode has no name"), so it stands for no text.
    const written = tag.delimiter === '%' ? '{{% %}}' : '{{< >}}'
    pass.losses.add('kb-shortcode-empty', written, pass.out.author, column, (count) => {
      return `An empty shortcode tag \`${written}\` (${places(count)}) names no shortcode: Hugo refuses to build the page ("shortcode has no name"), and kbsync leaves it out. Remove it, or write the name of the shortcode it was meant to call.`
    })
    return undefined
  }
  if (!family) {
    pass.losses.add('kb-shortcode-unknown', tag.name, pass.out.author, column, (count) => {
      return `The shortcode \`${tag.name}\` is not known to kbsync (${places(count)}): its content is kept, its arguments (${argumentsOrNone(tag)}) and what the site's template makes of them are lost. Write the text it stands for.`
    })
    if (isPaired(pass, tag)) pass.stack.push({name: tag.name, family: 'unknown', line: pass.out.author, tag})
    return undefined
  }
  return openTag(pass, tag, family, text.slice(tag.end), index)
}

// Where a tag may start: `{{<` or `{{%`.
const tagStarts = /\{\{[<%]/g

/**
 * The line at `index`, joined with the lines after it while a tag started on
 * it is closed only on a later line (Hugo allows arguments on several lines);
 * at most a tag's length of text is joined, else the line alone. The text
 * read again so is bounded per document (`pass.joinBudget`).
 */
function joinTagLines(pass: Pass, index: number): {text: string; index: number} {
  const lines = pass.site.lines
  const line = lines[index]!
  const starts = (text: string): number => text.match(tagStarts)?.length ?? 0
  if (findShortcodes(line).length === starts(line)) return {text: line, index}
  let text = line
  for (let at = index + 1; at < lines.length && text.length < 4000 && pass.joinBudget > 0; at++) {
    text += '\n' + lines[at]!
    if (!/[>%]\}\}/.test(lines[at]!)) continue
    pass.joinBudget -= text.length
    if (findShortcodes(text).length === starts(text)) return {text, index: at}
  }
  return {text: line, index}
}

/** Whether `tag` opens a pair: not self-closing, and a closing tag of its name follows somewhere. */
export function isPaired(pass: Pass, tag: Shortcode): boolean {
  return !tag.selfClosing && pass.paired.has(tag.name)
}

function argumentsOrNone(tag: Shortcode): string {
  const named = Object.entries(tag.named).map(([key, value]) => `${key}=${JSON.stringify(value)}`)
  const all = [...tag.positional.map((value) => JSON.stringify(value)), ...named].join(' ')
  return all === '' ? 'none' : all
}

/** Every escaped tag of a line of code shown as Hugo shows it. */
function unescapeAll(line: string): string {
  let result = ''
  let last = 0
  for (const tag of findShortcodes(line)) {
    if (!tag.escaped) continue
    result += line.slice(last, tag.start) + unescapedText(line, tag)
    last = tag.end
  }
  return result + line.slice(last)
}
