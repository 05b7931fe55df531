/**
 * `kbToHtml`: the dialect to semantic, sanitised HTML for a preview. Each
 * dialect node is recognisable by its element and `data-node`/`data-color`
 * attributes; raw HTML is shown as text and every URL is filtered.
 */
import type {Nodes as HastNodes, Root as HastRoot} from 'hast'
import {toHtml} from 'hast-util-to-html'
import type {Root} from 'mdast'
import {toHast} from 'mdast-util-to-hast'
import {assertNesting} from '../../../plugins/depth.js'
import {defaultArticleUrl, defaultTopicUrl} from '../kb-to-gfm/index.js'
import {parseKb} from '../parse.js'
import {defaultClobberPrefix} from './clobber.js'
import {dialectHandlers, type CodeHighlighter} from './handlers.js'
import {headingIds} from './heading-ids.js'
import {sanitize} from './sanitize.js'

export {defaultClobberPrefix, prefixFragment} from './clobber.js'
export type {CodeHighlighter} from './handlers.js'
export {slug} from './slug.js'
export {safeUrl} from './url.js'
export {videoEmbed} from './video.js'

/** Options of `kbToHtml`. */
export interface KbToHtmlOptions {
  /** The href of an article link (default `https://pyrus.com/t#kb/article/{id}`). */
  articleHref?: (id: string) => string
  /** The href of a topic link (default `https://pyrus.com/t#kb/topic/{id}`). */
  topicHref?: (id: string) => string
  /** The href an anchor points at (default `#{clobberPrefix}{identifier}`, the anchor's own id). */
  anchorHref?: (identifier: string) => string
  /**
   * Prefix of every `id` (and `name`) in the output, so content embedded in
   * another page cannot clobber that page's globals (`id="location"`); the
   * body's in-page links `#x` become `#{prefix}x` to match (what the
   * resolvers return is used as given). Default `user-content-`, as on
   * GitHub; `''` leaves ids as written.
   */
  clobberPrefix?: string
  /** Maps a URL of the body (image guid, attachment, link, …) before it is filtered (default: unchanged). */
  resolveUrl?: (url: string, kind: 'image' | 'attachment' | 'video' | 'drawio' | 'link') => string
  /**
   * Highlights code blocks: given the code and its language, the children of
   * the block's `<code>` (token spans told apart by class; the sanitiser
   * keeps no `style`), or undefined to leave the block plain. Default: none.
   */
  highlight?: CodeHighlighter
}

/** Renders a dialect tree to HTML; throws a `NestingError` for a tree nested deeper than `maxNesting` (see `stringifyKb`). */
export function kbTreeToHtml(tree: Root, options: KbToHtmlOptions = {}): string {
  assertNesting(tree)
  const clobberPrefix = options.clobberPrefix ?? defaultClobberPrefix
  // Headings get the ids docs sites give them (`#enabling-recursive-types`), prefixed like every id.
  const ids = headingIds(tree)
  const handlers = dialectHandlers({
    articleHref: options.articleHref ?? defaultArticleUrl,
    topicHref: options.topicHref ?? defaultTopicUrl,
    anchorHref: options.anchorHref ?? ((id) => `#${clobberPrefix}${id}`),
    resolveUrl: options.resolveUrl ?? ((url) => url),
    clobberPrefix,
    headingId: (node) => ids.get(node),
    highlight: options.highlight
  })
  const hast = toHast(tree, {handlers, allowDangerousHtml: false}) as HastNodes
  return toHtml(sanitize(hast as HastRoot, clobberPrefix))
}

/** Renders dialect Markdown to HTML. */
export function kbToHtml(markdown: string, options: KbToHtmlOptions = {}): string {
  return kbTreeToHtml(parseKb(markdown), options)
}
