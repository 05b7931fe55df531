/**
 * Links and images whose address runs code (`javascript:`, `vbscript:`,
 * `data:` other than a raster image) become their text, with a warning at
 * their line: the trust rule `isScriptUrl` applied to every node of the
 * dialect tree that carries a URL, whatever way it came (a GFM link, an
 * autolink, a reference definition, `<a href>`/`<img src>` converted from
 * HTML, the dialect's own tags). A repository is data: what it publishes
 * must not run a script in a reader's browser.
 */
import type {Html, Nodes, Parents, PhrasingContent, Root} from 'mdast'
import type {VFile} from 'vfile'
import {isScriptUrl} from '../../trust/url-scheme.js'
import {warn} from '../messages.js'
import {walk} from './walk.js'

/** The node types that may carry a `url` (the pass runs only when the tree holds one). */
export const urlNodeTypes: readonly string[] = ['link', 'image', 'definition', 'attachment', 'video', 'drawio']

/** What the warning shows of a URL: its start, on one line, enough to find it. */
function shown(url: string): string {
  const line = url.replace(/\s+/g, ' ').trim()
  return line.length > 40 ? `${line.slice(0, 40)}…` : line
}

/** The text that stands for `node` once its URL is dropped: a link's text, an image's alt text. */
function textOf(node: Nodes): PhrasingContent[] {
  if (node.type === 'link') return node.children
  if (node.type === 'image') return node.alt ? [{type: 'text', value: node.alt, position: node.position}] : []
  return []
}

/**
 * Replaces every node of `tree` whose URL runs code by its text, with a
 * `kb-script-url` warning in `file`. An attachment leaves its group, which
 * holds attachments only (its name would break the group); a group left
 * empty goes too.
 */
export function disarmScriptUrls(tree: Root, file: VFile): void {
  let emptied = false
  walk(tree, (node, index, parent: Parents) => {
    if (node.type === 'html') return disarmHtml(node, file)
    if (!('url' in node) || typeof node.url !== 'string') return
    if (!isScriptUrl(node.url, node.type === 'image' ? 'image' : 'link')) return
    const what = node.type === 'definition' ? 'link definition' : node.type
    const kept =
      node.type === 'image'
        ? 'only its alt text is published'
        : node.type === 'attachment'
          ? `the attachment \`${node.name}\` is left out of its group`
          : 'only its text is published'
    warn(
      file,
      node,
      'kb-script-url',
      `The ${what}'s address \`${shown(node.url)}\` would run a script (or open a document) in the reader's browser; ${kept}. Use an http(s) address or a relative path.`
    )
    const text = node.type === 'attachment' ? [] : textOf(node)
    ;(parent.children as Nodes[]).splice(index, 1, ...text)
    if (parent.children.length === 0) emptied = true
    // Go on with the text put in its place (a link's text may hold more links).
    return index
  })
  if (emptied)
    walk(tree, (node, index, parent: Parents) => {
      if (node.type !== 'attachmentsGroup' || node.children.length > 0) return
      ;(parent.children as Nodes[]).splice(index, 1)
      return index
    })
}

// An attribute that names an address in raw HTML (`<a href>`, `<area href>`, `<img src>`, `<form action>`…), its
// value quoted or not. Linear: each match starts at an attribute name.
const addressAttribute =
  /\s(?:href|src|action|formaction|xlink:href|poster|background|data)\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+)/gi

/**
 * Raw HTML a body keeps (a dialect body's `<a href>` is HTML, not a link
 * node): an address attribute whose value runs code is taken out of its
 * tag, with the same warning.
 */
function disarmHtml(node: Html, file: VFile): undefined {
  if (!/[=]/.test(node.value)) return undefined
  node.value = node.value.replace(addressAttribute, (whole, quoted: string) => {
    const url = /^["']/.test(quoted) ? quoted.slice(1, -1) : quoted
    if (!isScriptUrl(url)) return whole
    warn(
      file,
      node,
      'kb-script-url',
      `The HTML address \`${shown(url)}\` would run a script (or open a document) in the reader's browser; the attribute is left out. Use an http(s) address or a relative path.`
    )
    return ''
  })
  return undefined
}
