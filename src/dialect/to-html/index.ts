/**
 * `kbToHtml`: the dialect to semantic, sanitised HTML for a preview. Each
 * dialect node is recognisable by its element and `data-node`/`data-color`
 * attributes; raw HTML is shown as text and every URL is filtered.
 */
import {toHtml} from 'hast-util-to-html'
import type {Root} from 'mdast'
import {parseKb} from '../parse.js'
import {kbToHast, type KbToHtmlOptions} from './hast.js'

export {defaultClobberPrefix, prefixFragment} from './clobber.js'
export type {CodeHighlighter} from './handlers.js'
export {createKbHastHandlers, kbHastHandlers, kbToHast, type KbToHtmlOptions} from './hast.js'
export {slug} from './slug.js'
export {safeUrl} from './url.js'
export {videoEmbed} from './video.js'

/** Renders a dialect tree to HTML (`kbToHast`, serialised); throws a `NestingError` for a tree nested deeper than `maxNesting` (see `stringifyKb`). */
export function kbTreeToHtml(tree: Root, options: KbToHtmlOptions = {}): string {
  return toHtml(kbToHast(tree, options))
}

/** Renders dialect Markdown to HTML. */
export function kbToHtml(markdown: string, options: KbToHtmlOptions = {}): string {
  return kbTreeToHtml(parseKb(markdown), options)
}
