/**
 * The platform's Markdown style for ordinary mdast/GFM nodes: `-` bullets,
 * nested items indented exactly 4 spaces (5 under `100.`), headings capped
 * at level 3, `| --- |` table delimiter rows with unpadded cells, `\_` in
 * text, trailing-backslash hard breaks, `---` rules, `&` escaped only where
 * it would start a character reference, code in three-backtick fences
 * (`code-fence.ts`). List items and text have modules of their own
 * (`style/`); what the library's options cannot say is done through
 * `to-markdown-adapter.ts`.
 */
import type {Heading, Table} from 'mdast'
import {gfmStrikethroughToMarkdown} from 'mdast-util-gfm-strikethrough'
import {gfmTableToMarkdown} from 'mdast-util-gfm-table'
import {defaultHandlers, type Handle, type Join, type Options} from 'mdast-util-to-markdown'
import {code} from './code-fence.js'
import type {KbConstruct} from './construct.js'
import {inlineCode} from './inline-code.js'
import {constructPlugin} from './register.js'
import {listItem} from './style/list-item.js'
import {lineBreak, text} from './style/text.js'
import {narrowCharacterReferences, rawConstructs} from './to-markdown-adapter.js'

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
    child.type === 'text' && node.children[index + 1]?.type === 'html'
      ? {...child, value: child.value.replace(/(?:\r?\n|\r)$/, ' ')}
      : child
  )
  return defaultHandlers.heading(
    {...node, depth: Math.min(node.depth, 3) as Heading['depth'], children},
    parent,
    state,
    info
  )
}

const gfmTable = gfmTableToMarkdown({tablePipeAlign: false})
const tableHandle = gfmTable.handlers!.table as Handle

/** The GFM table with `---` delimiter cells (`:--`, `--:`, `:-:` when aligned). */
const table: Handle = (node: Table, parent, state, info) => {
  const value = tableHandle(node, parent, state, info)
  const lines = value.split('\n')
  if (lines.length > 1) {
    lines[1] = lines[1].replace(
      /(:?)-+(:?)/g,
      (_, left: string, right: string) => left + (left && right ? '-' : left || right ? '--' : '---') + right
    )
  }
  return lines.join('\n')
}

/** The root, serialised with the `&` pattern narrowed to real character references (see the adapter). */
const root: Handle = (node, parent, state, info) => {
  narrowCharacterReferences(state)
  return defaultHandlers.root(node, parent, state, info)
}

/**
 * An HTML block indented past a list cannot follow it directly: its spaces,
 * under the canonical marker, would put it inside the last item (`-  <u>`
 * then `  <div>`, written `- <u>` then `  <div>`). A comment between them
 * ends the list, as mdast-util-to-markdown does for indented code.
 */
const htmlAfterList: Join = (left, right) =>
  left.type === 'list' && right.type === 'html' && /^[ \t]/.test(right.value) ? false : undefined

/** to-markdown extension: the platform's style for ordinary Markdown (includes GFM tables and strikethrough). */
export function markdownStyleToMarkdown(): Options {
  return {
    ...canonicalOptions,
    extensions: [gfmTable, gfmStrikethroughToMarkdown()],
    handlers: {break: lineBreak, code, heading, inlineCode, listItem, root, table, text},
    join: [htmlAfterList],
    unsafe: [{character: '_', inConstruct: 'phrasing', notInConstruct: [...rawConstructs]}]
  }
}

/** The platform's style for ordinary Markdown, as a construct that pairs no tags. */
export const markdownStyleConstruct: KbConstruct = {name: 'markdownStyle', toMarkdown: markdownStyleToMarkdown()}

/** remark plugin: the platform's Markdown style when serialising. */
export const remarkKbMarkdownStyle = constructPlugin(markdownStyleConstruct)
