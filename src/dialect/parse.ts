/** `parseKb`: dialect Markdown to an mdast tree with the dialect's nodes. */
import type {Root} from 'mdast'
import {fromMarkdown} from 'mdast-util-from-markdown'
import {gfmStrikethroughFromMarkdown} from 'mdast-util-gfm-strikethrough'
import {gfmTableFromMarkdown} from 'mdast-util-gfm-table'
import {gfmStrikethrough} from 'micromark-extension-gfm-strikethrough'
import {gfmTable} from 'micromark-extension-gfm-table'
import {VFile} from 'vfile'
import {kbFromMarkdown, kbSyntax, reportKbProblems, takeKbProblems} from '../../plugins/index.js'
import {capHeadings} from './gfm-to-kb/unsupported.js'
import {sortMessages} from './messages.js'
import {syntaxVariants, tableConstruct} from './syntax.js'

/** The micromark extensions for a source: without tables when it cannot hold one (see `syntax.ts`). */
const extensionsFor = syntaxVariants([gfmTable(), gfmStrikethrough(), kbSyntax()], [tableConstruct])
const mdastExtensions = [gfmTableFromMarkdown(), gfmStrikethroughFromMarkdown(), kbFromMarkdown()]

/**
 * Parse dialect Markdown (synchronously). Never throws on bad input: when
 * given a VFile, problems (unclosed block, unknown `data-node`, invalid
 * colour, stray closing tag, ...) are added to `file.messages` with line,
 * column and a `ruleId` (`kb-unclosed-block`, `kb-unknown-node`,
 * `kb-invalid-color`, `kb-stray-closing-tag`, ...); the text is kept as
 * `html` nodes.
 */
export function parseKb(value: string | VFile): Root {
  const file = value instanceof VFile ? value : undefined
  const source = file ? String(file.value ?? '') : (value as string)
  const tree = fromMarkdown(source, {extensions: extensionsFor(source), mdastExtensions})
  if (file) {
    const before = file.messages.length
    reportKbProblems(tree, file)
    if (source.includes('####')) capHeadings(tree, file, false)
    // This parse's messages in document order (the passes report construct by construct).
    file.messages.push(...sortMessages(file.messages.splice(before)))
  } else takeKbProblems(tree)
  return tree
}
