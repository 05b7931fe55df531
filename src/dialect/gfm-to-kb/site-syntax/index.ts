/**
 * Docs-site syntax written as text, made what the site shows: admonitions
 * of Docusaurus, VitePress and MkDocs (also pymdownx blocks) become hint blocks and expanding
 * blocks, MDX imports, exports and comments go, Liquid and kramdown are
 * handled as `templates.ts` says, MkDocs' attribute lists, emoji and icon
 * shortcodes, mkdocstrings blocks and autorefs cross-references as `mkdocs/` says, TeX's `\(`/`\[`
 * delimiters as `tex-delimiters.ts` says, MyST's directives and roles as `myst.ts` says, table-of-contents
 * markers as `toc-markers.ts` says. The container forms are rewritten line
 * by line before the parse (`rewriteSiteSyntax`), keeping every line's
 * number, so that the Markdown inside them is parsed where it stands; what
 * needs the tree is done after it (`finishSiteSyntax`). Obsidian callouts
 * are block quotes: `../alerts.ts` converts them with GitHub's alerts.
 */
import type {Root} from 'mdast'
import type {VFile} from 'vfile'
import {rewriteFencedContainers} from './fenced-containers.js'
import type {SiteSource} from './lines.js'
import {rewriteJsxAttributes} from './jsx-attributes.js'
import {dropEsm, dropMdxComments} from './mdx.js'
import {warnMdxExpressions} from './mdx-expressions.js'
import {rewriteMkDocsAdmonitions} from './mkdocs.js'
import {rewriteAutodoc} from './mkdocs/mkdocstrings.js'
import {mayHoldAutorefs, rewriteAutorefs} from './mkdocs/autorefs.js'
import {handleTemplateSyntax} from './templates.js'
import {applyAttrLists} from './mkdocs/attr-lists.js'
import {mayHoldAttrList} from './mkdocs/attr-list-syntax.js'
import {mayHoldShortcode, replaceShortcodes} from './mkdocs/icons.js'
import {mayHoldShortcodes, rewriteHugoShortcodes} from './hugo/index.js'
import {mayHoldLiquid, rewriteLiquid} from './liquid.js'
import {restoreLines} from './origin.js'
import {insertTitles} from './titles.js'
import {mayHoldTexDelimiters, rewriteTexDelimiters} from './tex-delimiters.js'
import {mayHoldMyst, rewriteMyst} from './myst.js'
import {dropTocMarkers, mayHoldTocMarker} from './toc-markers.js'

/** Options of the docs-site passes. */
export interface SiteSyntaxOptions {
  /** Whether the source is MDX (every top-level `import`/`export` goes, `{expressions}` are warned about). */
  mdx: boolean
  /** Whether the MDX parser reads the source (it reads attribute expressions itself and reports what it drops). */
  parsed?: boolean
}

/** What the pre-pass answers: the rewritten source and what the tree pass needs. */
export interface RewrittenSource extends SiteSource {
  source: string
}

// Any of these in a source means a pass may have work; most articles have none (a setext `===` underline is no tab).
const siteMarkers = /^[ \t>]*(?::::|!!!|\?\?\?|\/\/\/|===[!+]?[ \t]+")|^(?:import|export)[\s{*]|\{\/\*/m

// A component's attribute given as an expression (`title={...}`), in MDX.
const jsxExpression = /^[ \t>]*<[A-Za-z][^>\n]*=\{/m

const templateStart = /\{[%{:]/

/** Rewrites the container syntax and MDX statements of `markdown` (see the module comment). */
export function rewriteSiteSyntax(markdown: string, options: SiteSyntaxOptions): RewrittenSource {
  const site: SiteSource = {lines: [], origin: [], titles: new Map(), messages: []}
  const attributes = options.mdx && !options.parsed && jsxExpression.test(markdown)
  const shortcodes = mayHoldShortcodes(markdown)
  const liquid = !options.mdx && mayHoldLiquid(markdown)
  const tex = mayHoldTexDelimiters(markdown)
  const autorefs = mayHoldAutorefs(markdown)
  const myst = !options.mdx && mayHoldMyst(markdown)
  const toc = mayHoldTocMarker(markdown)
  if (!attributes && !shortcodes && !liquid && !tex && !autorefs && !myst && !toc && !siteMarkers.test(markdown))
    return {...site, source: markdown}
  site.lines = markdown.split('\n')
  site.origin = site.lines.map((_, index) => index + 1)
  // The MDX parser reads ESM itself (its imports name the images a page shows).
  if (!options.parsed) dropEsm(site, options.mdx)
  dropMdxComments(site)
  // Hugo reads its shortcodes before Markdown: the blocks they open hold containers of the other syntaxes, not the reverse.
  if (shortcodes) rewriteHugoShortcodes(site)
  if (liquid) rewriteLiquid(site)
  if (attributes) rewriteJsxAttributes(site)
  // MyST's directives become the containers below, written the Docusaurus way.
  if (myst) rewriteMyst(site)
  if (toc) dropTocMarkers(site)
  // mkdocstrings' `::: a.b` before the containers it would be mistaken for; fenced containers before admonitions:
  // an admonition inside one then ends at its rewritten closing tag.
  if (markdown.includes(':::')) rewriteAutodoc(site)
  rewriteFencedContainers(site)
  rewriteMkDocsAdmonitions(site)
  if (autorefs) rewriteAutorefs(site)
  // Last: the lines are then those the parse reads (a formula inside a rewritten container is one still).
  if (tex) rewriteTexDelimiters(site)
  return {...site, source: site.lines.join('\n')}
}

/**
 * Gives the tree and the messages on `file` the author's line numbers back
 * where the pre-pass added lines (closing tags), then adds the pre-pass's
 * own messages (counted in the author's lines already). Call last, after
 * every pass that reads lines or reports.
 */
export function restoreSiteLines(tree: Root, file: VFile, site: RewrittenSource): void {
  const added = site.origin.length > 0 && site.origin.length !== site.origin[site.origin.length - 1]
  if (added) restoreLines(tree, file.messages, site.origin)
  for (const {line, column, ruleId, reason} of site.messages) {
    const message = file.message(reason, {place: {line, column}, ruleId, source: 'kbsync'})
    message.fatal = false
  }
}

/** The tree half: titles into the blocks opened, template and MDX warnings (`restoreSiteLines` adds the pre-pass's). */
export function finishSiteSyntax(tree: Root, site: RewrittenSource, file: VFile, options: SiteSyntaxOptions): void {
  insertTitles(tree, site.titles, site.origin, file)
  // Icons first: an attribute list right after one goes with it. Attribute lists before templates: ids become anchors.
  if (mayHoldShortcode.test(site.source)) replaceShortcodes(tree, file)
  if (mayHoldAttrList.test(site.source)) applyAttrLists(tree)
  if (options.mdx) {
    if (!options.parsed && site.source.includes('{')) warnMdxExpressions(tree, file)
  } else if (templateStart.test(site.source)) handleTemplateSyntax(tree, file)
}
