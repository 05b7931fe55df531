/**
 * A document's body as HTML: the dialect tree the scan built (the one push
 * serialises and sends), with its local links and files pointed at the
 * preview's own addresses, rendered by the dialect's `kbTreeToHtml`, code
 * blocks highlighted (`highlight.ts`).
 */
import type {Root} from 'mdast'
import {visit} from 'unist-util-visit'
import {defaultArticleUrl, kbTreeToHtml} from '../dialect/index.js'
import {prefixFragment} from '../dialect/to-html/index.js'
import {bodyTree, type LocalNode, type Resolved} from '../local/index.js'
import {highlightCode} from './highlight.js'
import type {PreviewModel} from './model.js'
import {fileHref, pageHref} from './routes.js'

/** Renders the body of `node` (empty string when it has none). */
export function renderBody(node: LocalNode, model: PreviewModel): string {
  const source = bodyTree(node)
  if (!source) return ''
  const tree = pointAtPreview(source)
  const href = (id: string, fallback: string) => {
    const target = model.byKbId.get(id)
    return target ? pageHref(target) : fallback
  }
  return kbTreeToHtml(tree, {
    articleHref: (id) => href(id, defaultArticleUrl(id)),
    topicHref: (id) => href(id, '#'),
    highlight: highlightCode
  })
}

/**
 * A copy of `tree` whose links to documents and local files (as the scan
 * resolved them, in `data.kbsync`) point at the preview's pages and files.
 */
function pointAtPreview(tree: Root): Root {
  const copy = structuredClone(tree)
  visit(copy, (node) => {
    if (node.type !== 'link' && node.type !== 'image' && node.type !== 'attachment') return
    const resolved = (node.data as {kbsync?: Resolved} | undefined)?.kbsync
    if (!resolved) return
    if ('link' in resolved) {
      // The target page's ids carry kbTreeToHtml's prefix, as this page's own in-page links do.
      const fragment = prefixFragment(/#.*$/.exec(node.url)?.[0] ?? '')
      node.url = pageHref({kind: resolved.link.kind, path: resolved.link.target}) + fragment
    } else if ('external' in resolved) {
      node.url = resolved.external.url
    } else if ('asset' in resolved) {
      node.url = fileHref(resolved.asset.path)
    }
  })
  return copy
}
