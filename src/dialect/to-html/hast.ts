/**
 * The dialect as a hast tree, the unified way: `mdast-util-to-hast` handlers
 * for every dialect node (`kbHastHandlers`, what `remark-rehype` takes as
 * `handlers`) and `kbToHast`, which runs them. Both HTML outputs of
 * `kbToHtml` are these handlers' trees, serialised.
 *
 * The handlers of the tree's root finish the page: they give headings their
 * ids (those need the whole tree) and pass the result through the
 * sanitiser, so a pipeline `remark-parse -> remarkKb -> remark-rehype ->
 * rehype-stringify` gives the same HTML as `kbToHtml`.
 */
import type {Parents as HastParents, Root as HastRoot} from 'hast'
import type {Heading, Root} from 'mdast'
import {defaultHandlers, toHast, type Handlers, type State} from 'mdast-util-to-hast'
import {assertNesting} from '../../../plugins/depth.js'
import {defaultArticleUrl, defaultTopicUrl} from '../kb-to-gfm/index.js'
import {parseKb} from '../parse.js'
import {defaultClobberPrefix} from './clobber.js'
import {dialectHandlers, type CodeHighlighter} from './handlers.js'
import {headingIds} from './heading-ids.js'
import {sanitize} from './sanitize.js'

/** Options of `kbToHast`, `kbToHtml` and `createKbHastHandlers`. */
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

/**
 * `mdast-util-to-hast` handlers (`remark-rehype`'s `handlers` option) of
 * every dialect node, and of the nodes whose HTML the dialect decides (raw
 * HTML shown as text, links, headings with ids, code), closed over
 * `options`. The root's handler sanitises the whole tree.
 */
export function createKbHastHandlers(options: KbToHtmlOptions = {}): Handlers {
  const clobberPrefix = options.clobberPrefix ?? defaultClobberPrefix
  // The ids of a conversion's headings, found by its root's handler (a heading's own handler sees no other heading).
  const ids = new WeakMap<State, Map<Heading, string>>()
  const handlers = dialectHandlers({
    articleHref: options.articleHref ?? defaultArticleUrl,
    topicHref: options.topicHref ?? defaultTopicUrl,
    anchorHref: options.anchorHref ?? ((id) => `#${clobberPrefix}${id}`),
    resolveUrl: options.resolveUrl ?? ((url) => url),
    clobberPrefix,
    headingId: (node, state) => ids.get(state)?.get(node),
    highlight: options.highlight
  })
  return {
    ...handlers,
    root(state: State, node: Root): HastParents {
      assertNesting(node)
      ids.set(state, headingIds(node))
      return sanitize(defaultHandlers.root(state, node) as HastRoot, clobberPrefix)
    }
  } as Handlers
}

/** The handlers with the default options (links to pyrus.com, ids prefixed `user-content-`, no highlighting). */
export const kbHastHandlers: Handlers = createKbHastHandlers()

/**
 * Converts a dialect tree (or dialect Markdown, parsed with `parseKb`) to a
 * sanitised hast tree; throws a `NestingError` for a tree nested deeper than
 * `maxNesting` (see `stringifyKb`).
 */
export function kbToHast(tree: Root | string, options: KbToHtmlOptions = {}): HastRoot {
  const mdast = typeof tree === 'string' ? parseKb(tree) : tree
  return toHast(mdast, {handlers: createKbHastHandlers(options), allowDangerousHtml: false}) as HastRoot
}
