/**
 * `gfmToKb`: GitHub-flavoured Markdown (the authoring form) to the dialect.
 * Full GFM is parsed (authors may also write dialect tags directly), then
 * every construct the dialect cannot hold is converted with a warning.
 */
import type {Root} from 'mdast'
import type {VFileMessage} from 'vfile-message'
import {isUnconvertible, overBudgetRule} from '../guard.js'
import {messageFile, sortMessages} from '../messages.js'
import {stringifyKb} from '../stringify.js'
import {alertsToHintBlocks} from './alerts.js'
import {warnNestedFences} from './nested-fence.js'
import {capHeadings, convertFootnotes, convertTaskItems, escapeForeignHtml, inlineReferences} from './unsupported.js'
import {finishSiteSyntax, restoreSiteLines} from './site-syntax/index.js'
import {parseBody} from './mdx/body.js'
import {convertHtml} from './html/index.js'
import {drawioLinksToDiagrams} from './drawio-links.js'
import {convertMath} from './math.js'
import {disarmScriptUrls, urlNodeTypes} from './script-urls.js'
import {nodeTypes} from './walk.js'

export {alertColors} from './alerts.js'

/** Options of `gfmToKb`. */
export interface GfmToKbOptions {
  /** The file's path, named in messages. */
  path?: string
  /**
   * Whether the source is MDX: it is parsed as MDX (JSX components and
   * literal `{expressions}` read, ESM left out), or leniently when it is
   * not valid MDX. Default: whether `path` ends with `.mdx`.
   */
  mdx?: boolean
}

/** What `gfmToKbTree` answers. */
export interface GfmToKbTreeResult {
  tree: Root
  messages: VFileMessage[]
}

/**
 * Converts GFM to a dialect tree (the sync engine rewrites links and images
 * in it before `stringifyKb`). Never throws: a subtree nested deeper than
 * `maxNesting` is kept as text with an error message (`kb-nesting-too-deep`),
 * so the tree always serialises.
 */
export function gfmToKbTree(markdown: string, options: GfmToKbOptions = {}): GfmToKbTreeResult {
  const file = messageFile(markdown, options.path)
  // Docs-site containers (`:::tip`, `!!! note`) become dialect tags line for line, before the parse; MDX is
  // parsed as MDX (see `mdx/body.ts`). Nesting is capped before the transforms (they walk the tree) and after
  // them (pairing tags nests them); a capped subtree is text, never raw HTML.
  const {tree, site, source, siteOptions} = parseBody(markdown, file, options.mdx ?? /\.mdx$/i.test(options.path ?? ''))
  // What the conversion cannot keep is an error (the source must change), not a warning; a body over the parse
  // budget is kept as text, which the author sees on the platform as written: a warning.
  for (const message of file.messages)
    if (isUnconvertible(message) && message.ruleId !== overBudgetRule) message.fatal = true
  finishSiteSyntax(tree, site, file, siteOptions)
  // Most articles have none of the constructs a pass converts: one walk
  // tells which passes can change anything. No pass adds a node type a
  // later pass looks for, so the survey stays valid as they run.
  let types = nodeTypes(tree)
  // Formulas become `math` code blocks and marked inline code first: the passes below see only dialect nodes.
  if (types.has('math') || types.has('inlineMath')) {
    convertMath(tree, source)
    types.add('code').add('inlineCode')
  }
  // HTML becomes nodes the passes below look for (headings, list items, links): survey again after it.
  if (types.has('html')) {
    convertHtml(tree, file, source)
    types = nodeTypes(tree)
  }
  if (types.has('definition')) inlineReferences(tree)
  if (types.has('blockquote')) alertsToHintBlocks(tree, source, file)
  if (types.has('heading')) capHeadings(tree, file)
  if (types.has('listItem')) convertTaskItems(tree, file)
  if (types.has('footnoteDefinition') || types.has('footnoteReference')) convertFootnotes(tree, file)
  if (types.has('html')) escapeForeignHtml(tree, file)
  if (types.has('code')) warnNestedFences(tree, file, source)
  // After HTML and references became links: every URL the tree holds, whatever way it came, meets the one rule.
  if (urlNodeTypes.some((type) => types.has(type)) || types.has('linkReference') || types.has('imageReference'))
    disarmScriptUrls(tree, file)
  if (types.has('link') || types.has('image')) drawioLinksToDiagrams(tree)
  // Lines the docs-site pass added (closing tags) counted no more: every place is the author's line.
  restoreSiteLines(tree, file, site)
  return {tree, messages: sortMessages(file.messages)}
}

/** Converts GFM to canonical dialect Markdown. */
export function gfmToKb(markdown: string, options: GfmToKbOptions = {}): {markdown: string; messages: VFileMessage[]} {
  const {tree, messages} = gfmToKbTree(markdown, options)
  return {markdown: stringifyKb(tree), messages}
}
