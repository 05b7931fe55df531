/**
 * The platform's Markdown style for ordinary mdast/GFM nodes: `-` bullets,
 * nested items indented exactly 4 spaces (5 under `100.`), headings capped
 * at level 3, `| --- |` table delimiter rows with unpadded cells, `\_` in
 * text, trailing-backslash hard breaks, `---` rules, `&` escaped only where
 * it would start a character reference, code in three-backtick fences
 * (`code-fence.ts`).
 */
import type {Heading, List, ListItem, Nodes, Parents, Table, Text} from 'mdast'
import {gfmStrikethroughToMarkdown} from 'mdast-util-gfm-strikethrough'
import {gfmTableToMarkdown} from 'mdast-util-gfm-table'
import {defaultHandlers, type Handle, type Info, type Join, type Options, type State} from 'mdast-util-to-markdown'
import {code} from './code-fence.js'
import {inlineCode} from './inline-code.js'
import {isUnsafeCharacter, safe} from './safe.js'
import {readTag} from './syntax/tag.js'
import {isBlockTag} from './syntax/vocabulary.js'
import {append} from './transform/pairing.js'
import type {KbConstruct} from './construct.js'
import {registerConstructs, type KbProcessor, type KbTransformer} from './register.js'

/** Options of mdast-util-to-markdown that give the canonical form. */
export const canonicalOptions = {
  bullet: '-',
  bulletOther: '*',
  bulletOrdered: '.',
  emphasis: '*',
  strong: '*',
  fence: '`',
  fences: true,
  rule: '-',
  ruleRepetition: 3,
  ruleSpaces: false,
  setext: false,
  closeAtx: false,
  incrementListMarker: true,
  resourceLink: false,
  tightDefinitions: false
} as const satisfies Options

/**
 * A heading, at most level 3. A line ending that ends a text before HTML
 * becomes a space (see `text`), so it cannot make the heading setext.
 */
const heading: Handle = (node: Heading, parent, state, info) => {
  const children = node.children.map((child, index) =>
    child.type === 'text' && node.children[index + 1]?.type === 'html' ? {...child, value: child.value.replace(/(?:\r?\n|\r)$/, ' ')} : child
  )
  return defaultHandlers.heading({...node, depth: Math.min(node.depth, 3) as Heading['depth'], children}, parent, state, info)
}

const padless = new Set(['paragraph', 'heading', 'html', 'thematicBreak'])

/**
 * Whether a flow child has lines that may be read back as HTML: HTML, a
 * paragraph with a tag first (after another block), and those inside a
 * hint block or details, whose content is written at the item's indent.
 */
function startsWithHtml(child: Nodes): boolean {
  const stack = [child]
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === 'html' || (node.type === 'paragraph' && node.children[0]?.type === 'html')) return true
    if (blankInside.has(node.type)) append(stack, (node as Parents).children)
  }
  return false
}

/**
 * Whether a list item's marker is padded to the continuation indent, so its
 * content column is where the continuation lines are. A fence or a list on
 * the marker's line fixes the content column there. HTML keeps the spaces
 * past the content column in its value, so an HTML block on a continuation
 * line (`- a` then `    </div>`) would gain them on every pass; so would a
 * first HTML block of more than one line.
 */
function padded(node: ListItem): boolean {
  const first = node.children[0]
  if (first && !padless.has(first.type)) return true
  return node.children.some((child, index) => (index > 0 ? startsWithHtml(child) : child.type === 'html' && child.value.includes('\n')))
}

/**
 * Constructs written with blank lines inside at their parent's level (tag
 * lines around their content: `wrapFlow` in util.ts): an item holding one
 * and more is read back loose.
 */
const blankInside = new Set(['hintBlock', 'details'])

/**
 * The item as it will be read back: a tight item two of whose children
 * need a blank line between them (HTML that ends only at one, a paragraph
 * after a paragraph) is read back loose, so it is written loose, with a
 * blank line between all its children, as the next pass would write it.
 */
function writtenSpread(node: ListItem, state: State): ListItem {
  if (node.spread || node.children.length < 2) return node
  if (node.children.some((child) => blankInside.has(child.type))) return {...node, spread: true}
  for (let index = 1; index < node.children.length; index++) {
    if (blankBetween(node.children[index - 1], node.children[index], node, state)) return {...node, spread: true}
  }
  return node
}

/** Whether `state`'s joins put a blank line (or more) between two flow children, as `containerFlow` reads them. */
function blankBetween(left: Nodes, right: Nodes, parent: ListItem, state: State): boolean {
  for (let index = state.join.length - 1; index >= 0; index--) {
    const result = state.join[index](left as never, right as never, parent, state)
    if (typeof result === 'number') return result > 0
    if (typeof result === 'boolean') return true
  }
  return true
}

/** A list item whose continuation lines are indented `max(4, marker + 1)`. */
const listItem: Handle = (node: ListItem, parent, state: State, info) => {
  let bullet = state.bulletCurrent || '-'
  const list = parent && parent.type === 'list' ? (parent as List) : undefined
  if (list && list.ordered) {
    const start = typeof list.start === 'number' && list.start > -1 ? list.start : 1
    // The item's index is on the index stack (`indexOf` would make a long ordered list quadratic).
    const index = state.indexStack[state.indexStack.length - 1]
    bullet = String(start + (state.options.incrementListMarker === false ? 0 : index)) + bullet
  }
  const size = Math.max(4, bullet.length + 1)
  const marker = padded(node) ? bullet + ' '.repeat(size - bullet.length) : bullet + ' '
  const tracker = state.createTracker(info)
  tracker.move(bullet + ' ')
  tracker.shift(size)
  const exit = state.enter('listItem')
  // Spaces before HTML on the marker's line would be read as part of the marker: they go.
  const html = node.children[0]?.type === 'html'
  const value = state.indentLines(state.containerFlow(writtenSpread(node, state), tracker.current()), (line, index, blank) => {
    if (index) return (blank ? '' : ' '.repeat(size)) + line
    return (blank ? bullet : marker) + (html ? line.replace(/^[ \t]+/, '') : line)
  })
  exit()
  return value
}

const gfmTable = gfmTableToMarkdown({tablePipeAlign: false})
const tableHandle = gfmTable.handlers!.table as Handle

/** The GFM table with `---` delimiter cells (`:--`, `--:`, `:-:` when aligned). */
const table: Handle = (node: Table, parent, state, info) => {
  const value = tableHandle(node, parent, state, info)
  const lines = value.split('\n')
  if (lines.length > 1) {
    lines[1] = lines[1].replace(/(:?)-+(:?)/g, (_, left: string, right: string) =>
      left + (left && right ? '-' : left || right ? '--' : '---') + right
    )
  }
  return lines.join('\n')
}

const fullPhrasingSpans = ['autolink', 'destinationLiteral', 'destinationRaw', 'reference', 'titleQuote', 'titleApostrophe'] as const
const rawSpans = new Set<string>(fullPhrasingSpans)

/**
 * Text made safe, with every `_` written `\_` as the platform does
 * (mdast-util-to-markdown leaves intraword underscores bare).
 */
export function safeText(state: State, value: string, info: Info): string {
  if (!value.includes('_') || state.stack.some((name) => rawSpans.has(name))) return safe(state, value, info)
  const parts = value.split('_')
  let out = ''
  for (let index = 0; index < parts.length; index++) {
    const before = index === 0 ? info.before : '_'
    const after = index === parts.length - 1 ? info.after : '_'
    out += safe(state, parts[index], {...info, before, after})
    if (index < parts.length - 1) out += '\\_'
  }
  return out
}

/**
 * The first character of a text's serialisation: all container-phrasing
 * wants when it looks ahead from the node before (without a `peek` it
 * serialises the text twice). Only characters some unsafe pattern names are
 * escaped or encoded (`safeText` adds `\` before `_`, one of them), so a
 * text starting with any other character starts with it; the rest is
 * serialised in full, as before.
 */
const textPeek: Handle = (node: Text, _, state, info) => {
  const first = node.value.charAt(0)
  if (first === '' || isUnsafeCharacter(state, first)) return safeText(state, node.value, info)
  return node.value
}

/**
 * Text. Before HTML that could start a block, mdast-util-to-markdown turns
 * the line ending that ends a text into a space, after the text was
 * escaped: the text is escaped for that space (`|` then a space is escaped,
 * `|` then a line ending is not), or the next pass would escape it. A
 * dialect block tag starts a block too (a line of tags): before one, the
 * line ending is a space here.
 */
const text: Handle = Object.assign(
  (node: Text, parent: Parents | undefined, state: State, info: Info) => {
    const index = state.indexStack[state.indexStack.length - 1]
    const leading = /^(?:\r?\n|\r)/.exec(node.value)
    if (leading && parent && startsTagLine(parent, index)) {
      // `</details>` then a line ending would be a line of tags: a space keeps the paragraph.
      return ' ' + safeText(state, node.value.slice(leading[0].length), {...info, before: ' '})
    }
    const ending = /(?:\r?\n|\r)$/.exec(node.value)
    const next = ending && parent ? parent.children[index + 1] : undefined
    if (!ending || !next || next.type !== 'html') return safeText(state, node.value, info)
    const value = safeText(state, node.value.slice(0, ending.index), {...info, after: ' '})
    return value + (startsBlockTag(next.value) ? ' ' : ending[0])
  },
  {peek: textPeek}
)

/**
 * Whether the children of a paragraph before `index` are tags and blank
 * text only, the first a block tag: written with their line endings, the
 * first line would be a line of tags. Their line endings are written as
 * spaces, up to the first text.
 */
function startsTagLine(parent: Parents, index: number): boolean {
  if (parent.type !== 'paragraph' || index < 1) return false
  let end = tagPrefixes.get(parent.children)
  if (end === undefined) tagPrefixes.set(parent.children, (end = tagPrefix(parent)))
  return index <= end
}

/**
 * Per paragraph (by its children), the end of its run of tags and blank
 * text from a block tag first (0 when it has none): found once, not once
 * per text of the paragraph.
 */
const tagPrefixes = new WeakMap<object, number>()

function tagPrefix(parent: Parents): number {
  const first = parent.children[0]
  if (first.type !== 'html' || !startsBlockTag(first.value)) return 0
  let end = 1
  for (; end < parent.children.length; end++) {
    const child = parent.children[end]
    if (child.type !== 'html' && (child.type !== 'text' || child.value.trim() !== '')) break
  }
  return end
}

/**
 * A hard break, but before a dialect block tag a space: after a break the
 * tag would start a line of tags, read as a block of its own.
 */
const lineBreak: Handle = (node, parent: Parents | undefined, state, info) => {
  // Called for the node before it too (to learn its first character): then the index stack is that node's.
  const index = state.indexStack[state.indexStack.length - 1]
  const next = parent?.children[parent.children[index] === node ? index + 1 : index + 2]
  if (next && next.type === 'html' && startsBlockTag(next.value)) return ' '
  return defaultHandlers.break(node, parent, state, info)
}

/** Whether `value` starts with a block tag of the dialect. */
function startsBlockTag(value: string): boolean {
  const found = readTag(value)
  return found !== undefined && isBlockTag(found.tag)
}


/**
 * What follows an `&` that starts a character reference: a name, a decimal
 * or a hexadecimal number, then `;`. mdast-util-to-markdown escapes every `&`
 * before a letter or `#` (`AT\&T`, `?a=1\&b=2` in a URL); the platform
 * writes them bare, and a body it returns must come back unchanged.
 */
const characterReference = '(?:[A-Za-z][A-Za-z0-9]{0,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});'

/** The root, serialised with the `&` pattern narrowed to real character references (the patterns are the state's, set up before the first handler). */
const root: Handle = (node, parent, state, info) => {
  state.unsafe = state.unsafe.map((pattern) => (pattern.character === '&' && pattern.after === '[#A-Za-z]' ? {...pattern, after: characterReference} : pattern))
  return defaultHandlers.root(node, parent, state, info)
}

/**
 * An HTML block indented past a list cannot follow it directly: its spaces,
 * under the canonical marker, would put it inside the last item (`-  <u>`
 * then `  <div>`, written `- <u>` then `  <div>`). A comment between them
 * ends the list, as mdast-util-to-markdown does for indented code.
 */
const htmlAfterList: Join = (left, right) => (left.type === 'list' && right.type === 'html' && /^[ \t]/.test(right.value) ? false : undefined)

/** to-markdown extension: the platform's style for ordinary Markdown (includes GFM tables and strikethrough). */
export function markdownStyleToMarkdown(): Options {
  return {
    ...canonicalOptions,
    extensions: [gfmTable, gfmStrikethroughToMarkdown()],
    handlers: {break: lineBreak, code, heading, inlineCode, listItem, root, table, text},
    join: [htmlAfterList],
    unsafe: [{character: '_', inConstruct: 'phrasing', notInConstruct: [...fullPhrasingSpans]}]
  }
}

/** The platform's style for ordinary Markdown, as a construct that pairs no tags. */
export const markdownStyleConstruct: KbConstruct = {name: 'markdownStyle', toMarkdown: markdownStyleToMarkdown()}

/** remark plugin: the platform's Markdown style when serialising. */
export function remarkKbMarkdownStyle(this: KbProcessor): KbTransformer {
  return registerConstructs(this, [markdownStyleConstruct])
}
