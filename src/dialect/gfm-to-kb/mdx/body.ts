/**
 * How a body is parsed: an `.mdx` file, and any file holding
 * ```` ```mdx-code-block ```` fences, through the MDX parser (`parse.ts`,
 * then `settle.ts`); a body that is not valid MDX, and every other file,
 * as GFM with HTML (the lenient reading, where components are found in the
 * HTML: `../html/`). Either way the docs-site syntax pre-pass runs first
 * (`../site-syntax/`), and the tree counts the author's lines once
 * `restoreSiteLines` ran.
 */
import type {Root} from 'mdast'
import {fromMarkdown} from 'mdast-util-from-markdown'
import type {VFile} from 'vfile'
import {boundContainers} from '../../../../plugins/container-depth.js'
import {nestingLimit} from '../../../../plugins/depth.js'
import {kbTransform, reportKbProblems} from '../../../../plugins/index.js'
import {parseGuarded} from '../../guard.js'
import {parseInSlices} from '../../slices/index.js'
import {syntaxFor, treeExtensions} from '../extensions.js'
import {rewriteSiteSyntax, type RewrittenSource, type SiteSyntaxOptions} from '../site-syntax/index.js'
import {mayHoldMdxCodeBlock, unwrapMdxCodeBlocks} from '../site-syntax/mdx-code-block.js'
import {parseMdx, type MdxFailure} from './parse.js'
import {settleMdx} from './settle.js'

/** A parsed body: its tree (in the lines of `source`), the pre-pass's result and the options it ran with. */
export interface ParsedBody {
  tree: Root
  site: RewrittenSource
  source: string
  siteOptions: SiteSyntaxOptions
}

/** Parses `markdown` (`mdx`: an MDX file) as the module comment says; messages go to `file`. */
export function parseBody(markdown: string, file: VFile, mdx: boolean): ParsedBody {
  const unwrapped = mayHoldMdxCodeBlock(markdown) ? unwrapMdxCodeBlocks(markdown) : markdown
  if (!mdx && unwrapped === markdown) return parseLenient(markdown, file, {mdx})
  const siteOptions: SiteSyntaxOptions = {mdx: true, parsed: true}
  const site = rewriteSiteSyntax(unwrapped, siteOptions)
  const source = boundContainers(site.source)
  let failure: MdxFailure | undefined
  const tree = parseGuarded(markdown, file, 'text', () => {
    const result = parseMdx(source)
    if ('failure' in result) {
      failure = result.failure
      return {type: 'root', children: []}
    }
    settleMdx(result.tree, file)
    // The dialect's own tags (and those the pre-pass wrote) were read as JSX: paired now, as a GFM parse pairs them.
    kbTransform(result.tree)
    reportKbProblems(result.tree, file)
    return result.tree
  })
  if (!failure) return {tree, site, source, siteOptions}
  const lenient = parseLenient(unwrapped, file, {mdx})
  const line = site.origin[failure.line - 1] ?? failure.line
  lenient.site.messages.push({
    line,
    column: failure.column,
    ruleId: 'kb-mdx-invalid',
    reason: `Not valid MDX (line ${line}: ${failure.reason}); the page is read as Markdown with HTML instead, where components and \`{…}\` props convert less exactly. Make it valid MDX (write a literal \`<\` or \`{\` as \`\\<\` or \`\\{\`).`
  })
  return lenient
}

/** The lenient reading: GFM with HTML, MDX statements and attribute expressions rewritten as text first. */
function parseLenient(markdown: string, file: VFile, siteOptions: SiteSyntaxOptions): ParsedBody {
  const site = rewriteSiteSyntax(markdown, siteOptions)
  const source = boundContainers(site.source)
  const tree = parseGuarded(markdown, file, 'text', () => {
    // A long table or list is parsed in slices (../../slices): its events are not all held at once.
    const parsed = parseInSlices(source, (part) =>
      fromMarkdown(part, {
        extensions: syntaxFor(part),
        mdastExtensions: [nestingLimit(part, 'text'), ...treeExtensions, nestingLimit(part, 'text')]
      })
    )
    reportKbProblems(parsed, file)
    return parsed
  })
  return {tree, site, source, siteOptions}
}
