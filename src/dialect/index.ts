/** The dialect conversions: parse, stringify, GFM <-> dialect, HTML. */
export {parseKb} from './parse.js'
export {isUnconvertible, overBudgetRule, parseFailedRule} from './guard.js'
export {maxNesting, NestingError, nestingRule} from '../../plugins/depth.js'
export {stringifyKb} from './stringify.js'
export {kbProcessor} from './processor.js'
export {gfmToKb, gfmToKbTree, alertColors, type GfmToKbOptions} from './gfm-to-kb/index.js'
export {kbToGfm, kbTreeToGfm, defaultArticleUrl, defaultTopicUrl, type KbToGfmOptions} from './kb-to-gfm/index.js'
export {
  kbToHtml,
  kbTreeToHtml,
  kbToHast,
  kbHastHandlers,
  createKbHastHandlers,
  safeUrl,
  videoEmbed,
  type KbToHtmlOptions
} from './to-html/index.js'
export {
  kbToCommentHtml,
  kbTreeToCommentHtml,
  commentColors,
  commentTags,
  type CommentColor
} from './comment-html/index.js'
export {asPlatformStores} from './platform-form.js'
