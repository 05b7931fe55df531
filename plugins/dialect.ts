/**
 * The whole dialect: every construct, and the extensions of each layer
 * (micromark's is `kbSyntax`) made of them, for pipelines built by hand
 * (`parseKb`, `stringifyKb`) and for the `remarkKb` preset.
 */
import type {Root} from 'mdast'
import type {Extension as FromMarkdownExtension} from 'mdast-util-from-markdown'
import type {Options as ToMarkdownExtension} from 'mdast-util-to-markdown'
import {anchorLinkConstruct} from './anchor-link.js'
import {articleLinkConstruct} from './article-link.js'
import {attachmentsConstruct} from './attachments.js'
import type {KbConstruct} from './construct.js'
import {detailsConstruct} from './details.js'
import {drawioConstruct} from './drawio.js'
import {kbFromMarkdownOf} from './from-markdown.js'
import {hintBlockConstruct} from './hint-block.js'
import {imageConstruct} from './image.js'
import {markConstruct} from './mark.js'
import {markdownStyleConstruct} from './markdown-style.js'
import {pairTree} from './transform/index.js'
import {pairingTable} from './transform/table.js'
import {underlineConstruct} from './underline.js'
import {videoConstruct} from './video.js'

/** Every construct of the dialect, the platform's Markdown style first (the constructs' handlers win over it). */
export const dialectConstructs: readonly KbConstruct[] = [
  markdownStyleConstruct,
  underlineConstruct,
  markConstruct,
  articleLinkConstruct,
  anchorLinkConstruct,
  hintBlockConstruct,
  detailsConstruct,
  attachmentsConstruct,
  drawioConstruct,
  videoConstruct,
  imageConstruct
]

// The pairing table of the whole dialect, made once: every parser of the whole dialect shares it.
const table = pairingTable(dialectConstructs)

/**
 * The to-markdown extension of the whole dialect, canonical style included
 * (GFM tables and strikethrough in the platform's form). Put it after
 * `gfmToMarkdown()` when combining with full GFM so its handlers win.
 */
export function kbToMarkdown(): ToMarkdownExtension {
  return {extensions: dialectConstructs.map((construct) => construct.toMarkdown)}
}

/**
 * The from-markdown extension of the whole dialect (use with `kbSyntax()`):
 * builds every construct's nodes. Problems are kept for
 * `takeProblems(tree)` / `reportProblems(tree, file)`.
 */
export function kbFromMarkdown(): FromMarkdownExtension {
  return kbFromMarkdownOf(dialectConstructs, table)
}

/** Build every construct's nodes in `tree` from its `html` tags (in place); problems are recorded for `takeKbProblems`. */
export function kbTransform(tree: Root): void {
  pairTree(tree, table)
}
