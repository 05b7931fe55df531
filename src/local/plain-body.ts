/**
 * What a scan must know of a body before the first write (its conversion
 * messages and its local references), read without parsing when the body
 * is plain: prose, headings of up to three levels, flat lists, tables,
 * emphasis, and inline links and images with simple destinations.
 *
 * Parsing every body is most of the time before a push can write (about a
 * millisecond per small article while V8 warms the parser up), and no write
 * may start before every body is checked. A plain body has no message and
 * no reference but its `[text](url)` and `![alt](url)`, so it is checked
 * from a pattern instead, and parsed only when it is rendered, during the
 * writes, while the requests in flight leave the thread idle.
 *
 * "Plain" is decided conservatively: any character or line that could start
 * another construct (HTML and the dialect's tags, code, escapes, character
 * references, quotes, indented lines or list items, reference links,
 * footnotes, deep headings, strikethrough, math) sends the body to the parser, and so
 * does a body that could nest deeper than the parser keeps (`maxNesting`:
 * the parser would report it, and rendering would cap it). A property test
 * checks that for every body this accepts, the parser finds no message and
 * exactly these references (`test/local/plain-body.test.ts`).
 */
import {maxNesting} from '../../plugins/depth.js'
import {isLocalUrl, type LocalRef} from './references.js'

// A link or image whose text holds no bracket, bar or line ending and whose
// destination is one run of characters that cannot end or qualify it.
const inlineRef = /(!?)\[([^[\]|\n]*)\]\(([^()\s<>"'|]*)\)/g
// Any character that could open a construct other than emphasis, a list, a table or those links (`$`: math).
// eslint-disable-next-line no-control-regex -- control characters are among the unsafe ones on purpose
const unsafeCharacter = /[<>`\\&~$\u0000-\u0009\u000b-\u001f\u007f]/
// Liquid, kramdown and MDX comments, which the conversion warns about or leaves out (`.mdx` bodies are always parsed).
const templateSyntax = /\{[%{:]|\{\/\*/
// A docs-site container (`:::tip`, `!!! note`, `??? faq`, `/// note`, `=== "Tab"`): the conversion makes it a block, or warns.
const siteContainer = /^[ \t]*(?::::|!!!|\?\?\?|\/\/\/|=== ?")/m
// An emoji or icon shortcode (`:smile:`, `:material-check:`) or an attribute list (`{ #id }`): converted, an icon
// left out with a warning (`site-syntax/mkdocs/`).
const siteShortcode = /:[+\w-]{1,100}:|\{:?[ \t]*(?:[#.][\w-]|[A-Za-z_:][\w:.-]*=)/
// Where GFM may find a literal autolink, which can swallow the brackets after it.
const autolinkStart = /www\.|:\/\/|@|mailto:|xmpp:/i
// A line that opens with whitespace (indented code, nested blocks, lazy lines) and holds more than it.
const indentedLine = /^[ \t]+\S/m
// A list marker followed by five spaces or more: the item's content is indented code.
const listCode = /^(?:(?:[-+*]|\d{1,9}[.)]) {1,4})*(?:[-+*]|\d{1,9}[.)]) {5,}/m

// How deep a plain body can nest: lines cannot be indented, so lists nest only by markers in a row at a line's
// start (`- - - x`, two levels each), and phrasing by emphasis (one level per pair of `*` or `_` in a block).
// Below those: a table, its row and cell; above: a link and its text. What could pass the limit is parsed.
const markersInRow = 8
const markerRow = new RegExp(`^(?:(?:[-+*]|\\d{1,9}[.)])[ \\t]+){${markersInRow}}`, 'm')
const attentionMax = 2 * (maxNesting - 2 * markersInRow - 5)

/**
 * The local references of `body` in document order, with the line and
 * column the parser would give them, when `body` is plain (see the module
 * comment); undefined when only parsing can tell.
 */
export function plainBodyRefs(body: string): LocalRef[] | undefined {
  if (
    unsafeCharacter.test(body) ||
    templateSyntax.test(body) ||
    siteContainer.test(body) ||
    siteShortcode.test(body) ||
    body.includes('####') ||
    indentedLine.test(body) ||
    listCode.test(body) ||
    mayNestDeep(body)
  )
    return undefined
  const refs: LocalRef[] = []
  // The text outside the links and images, and their own texts.
  let rest = ''
  let texts = ''
  let last = 0
  let line = 1
  let lineStart = 0
  for (const match of body.matchAll(inlineRef)) {
    const at = match.index
    rest += body.slice(last, at)
    last = at + match[0].length
    texts += match[2]! + '\n'
    const url = match[3]!
    if (!isLocalUrl(url)) continue
    for (let index = body.indexOf('\n', lineStart); index !== -1 && index < at; index = body.indexOf('\n', index + 1)) {
      line++
      lineStart = index + 1
    }
    refs.push({kind: match[1] ? 'image' : 'link', url, line, column: at - lineStart + 1})
  }
  rest += body.slice(last)
  // A bracket the pattern did not take may be a reference, a footnote, a task or a nested link.
  return /[[\]]/.test(rest) || autolinkStart.test(rest) || autolinkStart.test(texts) ? undefined : refs
}

/** Whether `body` could nest deeper than `maxNesting` (see `markersInRow`): runs of list markers or much emphasis in one block. */
function mayNestDeep(body: string): boolean {
  if (markerRow.test(body)) return true
  if (attentionCount(body) < attentionMax) return false
  // A paragraph never spans a blank line: count block by block.
  return body.split(/\n[ \t]*\n/).some((block) => attentionCount(block) >= attentionMax)
}

/** How many `*` and `_` `text` holds. */
function attentionCount(text: string): number {
  let count = 0
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code === 42 || code === 95) count++
  }
  return count
}
