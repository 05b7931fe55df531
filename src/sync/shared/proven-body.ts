/**
 * The proven class of pulled bodies (issue 32). A pull proves each body it
 * writes by parsing the file's text as push will and comparing the tree
 * with the platform's (`proof.ts`): that read-back was the largest part of
 * a pull's CPU. For a tree built only of prose (text of a safe alphabet,
 * its lines broken as a parse leaves them outside headings, table cells and
 * alt text, emphasis, inline code), headings of up to three levels, lists, tables,
 * code blocks, block quotes, thematic breaks, and links and images with
 * plain destinations (images of prose alt text, and neither in a table,
 * whose cells are written apart and padded), the conversion is proven by a
 * property test instead (`test/pull/proven-body.test.ts`): for every such
 * tree, the read-back gives the platform's tree, no message, and its links
 * and images where the writer tracked them. Such a body is not parsed
 * again; any other node, field or character sends the body to the
 * read-back, as before.
 */
import type {Nodes, Root} from 'mdast'
import {nodeDiagramKind} from '../../diagrams/index.js'
import {kbTreeToGfmTracked} from '../../dialect/kb-to-gfm/tracked.js'
import type {ExternalUrl} from '../../local/external-urls.js'
import {isLocalUrl, type LocalRef} from '../../local/index.js'

/** The fields each node type of the class may have (any other field, or type, is outside it). */
const fields: Record<string, readonly string[]> = {
  root: ['children'],
  paragraph: ['children'],
  heading: ['depth', 'children'],
  text: ['value'],
  emphasis: ['children'],
  strong: ['children'],
  inlineCode: ['value'],
  list: ['ordered', 'start', 'spread', 'children'],
  listItem: ['spread', 'checked', 'children'],
  table: ['align', 'children'],
  tableRow: ['children'],
  tableCell: ['children'],
  code: ['lang', 'meta', 'value'],
  blockquote: ['children'],
  thematicBreak: [],
  link: ['url', 'title', 'children'],
  image: ['url', 'title', 'alt']
}

// Text of letters, digits and a few marks, none of which opens a construct the read-back knows and the dialect does not.
const safeText = /^[\p{L}\p{N} .,;:!?'"()/-]*$/u
// Autolink literals, emoji shortcodes and docs-site containers: the read-back reads them, the platform's parse does not.
const siteOrAutolink = /www\.|:\/\/|mailto:|xmpp:|:[+\w-]{1,100}:|:::|!!!|\?\?\?|\/\/\//i
// A destination written as it is: a relative path as `relativeUrl` makes it, or a plain http(s) URL.
const plainUrl = /^(?:https?:\/\/[\w.-]+(?:\/[\w./%-]*)?|[\w.%-]+(?:\/[\w.%-]+)*)$/
const codeLanguage = /^[\w+-]{1,30}$/

/** Whether `text` is prose of the class: safe characters, nothing the read-back would read as a construct. */
function provenText(text: string): boolean {
  return safeText.test(text) && !siteOrAutolink.test(text)
}

// A line break as a parse of a paragraph never leaves one: a blank line, or a space or tab beside the break.
const unparsedBreak = /\n\n|[ \t]\n|\n[ \t]/

/**
 * Whether `text` is prose of the class where a paragraph's lines may break
 * (not in a heading, a table cell or alt text): each line prose, the breaks
 * as a parse leaves them, none before the first or after the last of its
 * parent's children (a parse trims a paragraph's text).
 */
function provenLines(text: string, first: boolean, last: boolean): boolean {
  if (!text.includes('\n')) return provenText(text)
  if (unparsedBreak.test(text) || (first && text.startsWith('\n')) || (last && text.endsWith('\n'))) return false
  return text.split('\n').every(provenText)
}

/** Where a node is: in a table, in a heading or a table (one line), the first or the last of its parent's children. */
interface Place {
  inTable: boolean
  oneLine: boolean
  first: boolean
  last: boolean
}

/** Whether `node` alone (not its children), at `place`, is of the class. */
function provenNode(node: Nodes, place: Place): boolean {
  const allowed = fields[node.type]
  if (allowed === undefined) return false
  for (const key in node) if (key !== 'type' && !allowed.includes(key)) return false
  switch (node.type) {
    case 'text':
      return place.oneLine ? provenText(node.value) : provenLines(node.value, place.first, place.last)
    case 'inlineCode':
      return /^[^`\n]*\S[^`\n]*$/.test(node.value)
    case 'heading':
      return node.depth <= 3
    case 'listItem':
      return node.checked === null || node.checked === undefined
    case 'code':
      return (
        (node.lang === null || node.lang === undefined || codeLanguage.test(node.lang)) &&
        (node.meta === null || node.meta === undefined) &&
        nodeDiagramKind(node) === undefined &&
        !/```|~~~/.test(node.value)
      )
    case 'link':
      return (node.title === null || node.title === undefined) && plainUrl.test(node.url)
    case 'image':
      return (node.title === null || node.title === undefined) && plainUrl.test(node.url) && provenText(node.alt ?? '')
    default:
      return true
  }
}

/** Whether every node of `tree` is of the class, and it holds some text (a blank body is the read-back's to judge). */
export function inProvenClass(tree: Root): boolean {
  let text = false
  // A table writes its cells apart and pads them, so no link or image is tracked there; its cells and headings are one line.
  const stack: Array<[Nodes, Place]> = [[tree, {inTable: false, oneLine: false, first: true, last: true}]]
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, place] = next
    if (!provenNode(node, place) || (place.inTable && (node.type === 'link' || node.type === 'image'))) return false
    if ('value' in node && node.value.trim() !== '') text = true
    if (!('children' in node)) continue
    const inTable = place.inTable || node.type === 'table'
    const oneLine = place.oneLine || inTable || node.type === 'heading'
    const {children} = node
    for (let index = 0; index < children.length; index++)
      stack.push([children[index]!, {inTable, oneLine, first: index === 0, last: index === children.length - 1}])
  }
  return text
}

/** What the read-back of a body of the class finds, without parsing it. */
export interface ProvenBody {
  /** The file's body, as `kbTreeToGfm` writes it. */
  text: string
  /** Its local references and external URLs, in document order, where a parse of the body places them. */
  refs: LocalRef[]
  urls: ExternalUrl[]
}

/**
 * The tree the read-back's parse of a body of the class gives (positions
 * dropped, references not restored), a copy of its localized tree `local`:
 * the parse gives each link a `title` (null), localizing does not.
 */
export function provenTree(local: Root): Root {
  const tree = structuredClone(local)
  const stack: Nodes[] = [tree]
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === 'link' && node.title === undefined) node.title = null
    if ('children' in node) for (const child of node.children) stack.push(child)
  }
  return tree
}

/**
 * The text `kbTreeToGfm` writes for the localized tree `local` and what the
 * read-back of it (under `linesBefore` blank lines) would find, when
 * `local` is in the proven class; undefined when only the read-back can tell.
 */
export function provenBody(local: Root, linesBefore: number): ProvenBody | undefined {
  if (!inProvenClass(local)) return undefined
  const {markdown, at} = kbTreeToGfmTracked(local)
  // The writer escaped something (a character reference, a backslash): the read-back is left to judge it.
  if (/[&\\]/.test(markdown)) return undefined
  const written = [...at].sort(([, a], [, b]) => a.line - b.line || a.column - b.column)
  const refs: LocalRef[] = []
  const urls: ExternalUrl[] = []
  for (const [node, place] of written) {
    const line = place.line + linesBefore
    const kind = node.type
    if (isLocalUrl(node.url)) refs.push({kind, url: node.url, line, column: place.column})
    else if (/^https?:\/\//i.test(node.url)) urls.push({url: node.url, line, column: place.column, kind})
  }
  return {text: markdown, refs, urls}
}
