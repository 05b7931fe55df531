/** The remark plugins of the knowledge-base dialect and the `remarkKb` preset. */
import {gfmStrikethroughFromMarkdown} from 'mdast-util-gfm-strikethrough'
import {gfmTableFromMarkdown} from 'mdast-util-gfm-table'
import {gfmStrikethrough} from 'micromark-extension-gfm-strikethrough'
import {gfmTable} from 'micromark-extension-gfm-table'
import {dialectConstructs} from './dialect.js'
import {registerConstructs, type KbProcessor, type KbTransformer} from './register.js'

export * from './types.js'
export type {KbConstruct, FlowEntry, PhrasingEntry} from './construct.js'
export type {KbProcessor, KbTransformer} from './register.js'
export {kbSyntax} from './syntax/micromark.js'
export {kbFromMarkdown, kbToMarkdown, kbTransform} from './dialect.js'
export {
  takeProblems as takeKbProblems,
  reportProblems as reportKbProblems,
  type KbProblem
} from './transform/problems.js'
export {canonicalOptions, markdownStyleToMarkdown, remarkKbMarkdownStyle} from './markdown-style.js'
export {remarkKbUnderline, underlineToMarkdown} from './underline.js'
export {remarkKbMark, markToMarkdown} from './mark.js'
export {remarkKbArticleLink, articleLinkToMarkdown} from './article-link.js'
export {remarkKbAnchorLink, anchorLinkToMarkdown} from './anchor-link.js'
export {remarkKbHintBlock, hintBlockToMarkdown} from './hint-block.js'
export {remarkKbDetails, detailsToMarkdown} from './details.js'
export {remarkKbAttachments, attachmentsToMarkdown} from './attachments.js'
export {remarkKbDrawio, drawioToMarkdown} from './drawio.js'
export {remarkKbVideo, videoToMarkdown} from './video.js'
export {remarkKbImage, imageToMarkdown} from './image.js'

/**
 * remark preset: every construct of the dialect plus the GFM parts it uses
 * (tables and strikethrough only), with the canonical serialisation.
 * Parse problems become messages on the file when the processor runs.
 */
export function remarkKb(this: KbProcessor): KbTransformer {
  const data = this.data()
  ;(data.micromarkExtensions ||= []).push(gfmTable(), gfmStrikethrough())
  ;(data.fromMarkdownExtensions ||= []).push(gfmTableFromMarkdown(), gfmStrikethroughFromMarkdown())
  return registerConstructs(this, dialectConstructs)
}
