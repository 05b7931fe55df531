/**
 * A document's body as HTML: the dialect tree the scan built (the one push
 * serialises and sends), with its local links and files pointed at the
 * preview's own addresses, rendered by the dialect's `kbTreeToHtml`.
 */
import {toHtml} from 'hast-util-to-html'
import type {Root} from 'mdast'
import {toHast} from 'mdast-util-to-hast'
import {visit} from 'unist-util-visit'
import * as dialect from '../dialect/index.js'
import type {LocalNode, Resolved} from '../local/index.js'
import type {PreviewModel} from './model.js'
import {fileHref, pageHref} from './routes.js'

/** The options `kbTreeToHtml` takes (issue 3). */
interface KbToHtmlOptions {
  articleHref?: (id: string) => string
  topicHref?: (id: string) => string
}

interface HtmlApi {
  kbTreeToHtml?: (tree: Root, options?: KbToHtmlOptions) => string
}

/** The platform's address of an article, for links to articles not in the folder. */
const platformArticle = (id: string) => `https://pyrus.com/t#kb/article/${encodeURIComponent(id)}`

/** Renders the body of `node` (empty string when it has none). */
export function renderBody(node: LocalNode, model: PreviewModel): string {
  if (!node.tree) return ''
  const tree = pointAtPreview(node.tree)
  const href = (id: string, fallback: string) => {
    const target = model.byKbId.get(id)
    return target ? pageHref(target) : fallback
  }
  const convert = (dialect as HtmlApi).kbTreeToHtml
  if (!convert) return plainHtml(tree)
  return convert(tree, {articleHref: (id) => href(id, platformArticle(id)), topicHref: (id) => href(id, '#')})
}

/**
 * TEMPORARY, until `kbToHtml` lands in `src/dialect/` (issue 3): plain
 * Markdown to HTML, raw HTML left out (so nothing unescaped gets through),
 * dialect constructs shown as their plain content.
 */
function plainHtml(tree: Root): string {
  return toHtml(toHast(tree))
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
      const fragment = /#.*$/.exec(node.url)?.[0] ?? ''
      node.url = pageHref({kind: resolved.link.kind, path: resolved.link.target}) + fragment
    } else {
      node.url = fileHref(resolved.asset.path)
    }
  })
  return copy
}
