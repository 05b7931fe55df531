/** The remark plugins of the knowledge-base dialect and the `remarkKb` preset. */
import {gfmStrikethroughFromMarkdown} from 'mdast-util-gfm-strikethrough'
import {gfmTableFromMarkdown} from 'mdast-util-gfm-table'
import type {Options as ToMarkdownExtension} from 'mdast-util-to-markdown'
import {gfmStrikethrough} from 'micromark-extension-gfm-strikethrough'
import {gfmTable} from 'micromark-extension-gfm-table'
import {anchorLinkToMarkdown} from './anchor-link.js'
import {articleLinkToMarkdown} from './article-link.js'
import {attachmentsToMarkdown} from './attachments.js'
import {detailsToMarkdown} from './details.js'
import {drawioToMarkdown} from './drawio.js'
import {hintBlockToMarkdown} from './hint-block.js'
import {imageToMarkdown} from './image.js'
import {markToMarkdown} from './mark.js'
import {markdownStyleToMarkdown} from './markdown-style.js'
import {underlineToMarkdown} from './underline.js'
import {videoToMarkdown} from './video.js'
import {registerKb} from './util.js'

export * from './types.js'
export {kbSyntax} from './syntax/micromark.js'
export {kbFromMarkdown} from './from-markdown.js'
export {kbTransform} from './transform/index.js'
export {takeProblems as takeKbProblems, reportProblems as reportKbProblems, type KbProblem} from './transform/problems.js'
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
 * The to-markdown extension of the whole dialect, canonical style included
 * (GFM tables and strikethrough in the platform's form). Put it after
 * `gfmToMarkdown()` when combining with full GFM so its handlers win.
 */
export function kbToMarkdown(): ToMarkdownExtension {
  return {
    extensions: [
      markdownStyleToMarkdown(),
      underlineToMarkdown(),
      markToMarkdown(),
      articleLinkToMarkdown(),
      anchorLinkToMarkdown(),
      hintBlockToMarkdown(),
      detailsToMarkdown(),
      attachmentsToMarkdown(),
      drawioToMarkdown(),
      videoToMarkdown(),
      imageToMarkdown()
    ]
  }
}

/**
 * remark preset: every construct of the dialect plus the GFM parts it uses
 * (tables and strikethrough only), with the canonical serialisation.
 * Parse problems become messages on the file when the processor runs.
 */
export function remarkKb(this: any) {
  const data = this.data()
  ;(data.micromarkExtensions ||= []).push(gfmTable(), gfmStrikethrough())
  ;(data.fromMarkdownExtensions ||= []).push(gfmTableFromMarkdown(), gfmStrikethroughFromMarkdown())
  return registerKb(this, [kbToMarkdown()])
}
