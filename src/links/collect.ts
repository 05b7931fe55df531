/**
 * Collects the external URLs the documents of a scanned folder use: every
 * http(s) URL of a link, image, reference definition, attachment, video or
 * draw.io diagram, at the line it is written on. The body is read as the
 * push publishes it (the GFM to dialect conversion), so HTML images and
 * links count too; `mailto:`, `tel:` and local paths do not.
 */
import type {Root} from 'mdast'
import {toKbTree, type LocalNode, type ScanResult} from '../local/index.js'
import type {LinkUse} from './types.js'

/** Node types whose `url` a reader follows; every other node with a `url` is loaded by the page. */
const followed = new Set(['link', 'definition', 'attachment'])

/** Whether `url` is one the checker requests: an absolute http or https URL. */
export function isCheckableUrl(url: string): boolean {
  return /^https?:\/\/[^/?#\s]/i.test(url)
}

type UrlNode = {type: string; url?: unknown; children?: unknown[]; position?: {start: {line: number; column: number}}}

/** The external URLs of a dialect tree of the document `file`, in document order. */
export function externalLinksOf(tree: Root, file: string): LinkUse[] {
  const uses: LinkUse[] = []
  const stack: UrlNode[] = [tree]
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (typeof node.url === 'string' && isCheckableUrl(node.url.trim())) {
      const start = node.position?.start
      uses.push({
        url: node.url.trim(),
        file,
        ...(start ? {line: start.line, column: start.column} : {}),
        kind: followed.has(node.type) ? 'link' : 'image'
      })
    }
    // Pushed in reverse, so that children are visited in document order.
    if (Array.isArray(node.children))
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as UrlNode)
  }
  return uses
}

/** Text any external URL of a body contains: a scheme, or the `www.` of a GFM autolink literal. */
const mayHoldUrl = /https?:\/\/|www\./i

/** The external URLs of a document's body (the file's lines: front matter blanked, not removed). */
export function externalLinksOfBody(body: string, file: string): LinkUse[] {
  // Parsing is most of the cost: a third of the documents of real trees hold no URL at all.
  if (!mayHoldUrl.test(body)) return []
  return externalLinksOf(toKbTree(body, file).tree, file)
}

/** Every external URL used by the documents of `scan`, in folder order. */
export function collectLinkUses(scan: Pick<ScanResult, 'byPath'>): LinkUse[] {
  const seen = new Set<string>()
  const uses: LinkUse[] = []
  for (const node of Object.values(scan.byPath)) {
    const file = fileOf(node)
    if (node.body === undefined || seen.has(file)) continue
    seen.add(file)
    uses.push(...externalLinksOfBody(node.body, file))
  }
  return uses
}

/** The file that holds the body of `node` (`x.md`, or `dir/_index.md` for a topic). */
function fileOf(node: LocalNode): string {
  return node.file ?? node.path
}
