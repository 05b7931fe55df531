/** `parseKb`: dialect Markdown to an mdast tree with the dialect's nodes. */
import type {Root} from 'mdast'
import {fromMarkdown} from 'mdast-util-from-markdown'
import {gfmStrikethroughFromMarkdown} from 'mdast-util-gfm-strikethrough'
import {gfmTableFromMarkdown} from 'mdast-util-gfm-table'
import {gfmStrikethrough} from 'micromark-extension-gfm-strikethrough'
import {gfmTable} from 'micromark-extension-gfm-table'
import {VFile} from 'vfile'
import {boundContainers} from '../../plugins/container-depth.js'
import {nestingLimit} from '../../plugins/depth.js'
import {kbFromMarkdown, kbSyntax, reportKbProblems, takeKbProblems} from '../../plugins/index.js'
import {restoreKept} from '../../plugins/transform/kept.js'
import {capHeadings} from './gfm-to-kb/unsupported.js'
import {parseGuarded} from './guard.js'
import {sortMessages} from './messages.js'
import {syntaxVariants, tableConstruct} from './syntax.js'

/** The micromark extensions for a source: without tables when it cannot hold one (see `syntax.ts`). */
const extensionsFor = syntaxVariants([gfmTable(), gfmStrikethrough(), kbSyntax()], [tableConstruct])
const mdastExtensions = [gfmTableFromMarkdown(), gfmStrikethroughFromMarkdown(), kbFromMarkdown()]

/**
 * Parse dialect Markdown (synchronously). Never throws: when given a VFile,
 * problems (unclosed block, unknown `data-node`, invalid colour, stray
 * closing tag, nesting deeper than `maxNesting`, ...) are added to
 * `file.messages` with line, column and a `ruleId` (`kb-unclosed-block`,
 * `kb-unknown-node`, `kb-invalid-color`, `kb-stray-closing-tag`,
 * `kb-nesting-too-deep`, ...); the text is kept as `html` nodes. The tree
 * never nests deeper than `maxNesting`, so every serialiser takes it.
 */
export function parseKb(value: string | VFile): Root {
  const file = value instanceof VFile ? value : undefined
  const source = file ? String(file.value ?? '') : (value as string)
  const before = file?.messages.length ?? 0
  const tree = parseGuarded(source, file, 'html', () => parseBounded(source, file))
  // This parse's messages in document order (the passes report construct by construct); one per line of a
  // hostile body can be more than a call takes arguments.
  if (file) for (const message of sortMessages(file.messages.splice(before))) file.messages.push(message)
  return tree
}

function parseBounded(value: string, file: VFile | undefined): Root {
  const source = boundContainers(value)
  // Nesting is capped before the transforms (they walk the tree) and after them (pairing tags nests them).
  const extensions = [nestingLimit(source), ...mdastExtensions, nestingLimit(source)]
  const tree = fromMarkdown(source, {extensions: extensionsFor(source), mdastExtensions: extensions})
  // A stray closing tag's lines, kept as CommonMark reads them (plugins/transform/stray.ts).
  restoreKept(tree, source)
  if (!file) {
    takeKbProblems(tree)
    return tree
  }
  reportKbProblems(tree, file)
  if (source.includes('####')) capHeadings(tree, file, false)
  return tree
}
