/**
 * Links and images whose address runs code (`javascript:`, `vbscript:`,
 * `data:` other than a raster image) become their text, with a warning at
 * their line: the trust rule `isScriptUrl` applied to every node of the
 * dialect tree that carries a URL, whatever way it came (a GFM link, an
 * autolink, a reference definition, `<a href>`/`<img src>` converted from
 * HTML, the dialect's own tags). A repository is data: what it publishes
 * must not run a script in a reader's browser.
 */
import type {Nodes, Parents, PhrasingContent, Root} from 'mdast'
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

/** The text that stands for `node` once its URL is dropped: a link's text, an image's alt text, an attachment's name. */
function textOf(node: Nodes): PhrasingContent[] {
  if (node.type === 'link') return node.children
  if (node.type === 'image') return node.alt ? [{type: 'text', value: node.alt, position: node.position}] : []
  if (node.type === 'attachment') return [{type: 'text', value: node.name, position: node.position}]
  return []
}

/** Replaces every node of `tree` whose URL runs code by its text, with a `kb-script-url` warning in `file`. */
export function disarmScriptUrls(tree: Root, file: VFile): void {
  walk(tree, (node, index, parent: Parents) => {
    if (!('url' in node) || typeof node.url !== 'string') return
    if (!isScriptUrl(node.url, node.type === 'image' ? 'image' : 'link')) return
    const what = node.type === 'definition' ? 'link definition' : node.type
    const kept = node.type === 'image' ? 'its alt text' : node.type === 'attachment' ? 'its name' : 'its text'
    warn(
      file,
      node,
      'kb-script-url',
      `The ${what}'s address \`${shown(node.url)}\` would run a script (or open a document) in the reader's browser; only ${kept} is published. Use an http(s) address or a relative path.`
    )
    const text = textOf(node)
    ;(parent.children as Nodes[]).splice(index, 1, ...text)
    // Go on with the text put in its place (a link's text may hold more links).
    return index
  })
}
