/** `parseKb`: dialect Markdown to an mdast tree with the dialect's nodes. */
import type {Root} from 'mdast'
import {fromMarkdown} from 'mdast-util-from-markdown'
import {gfmStrikethroughFromMarkdown} from 'mdast-util-gfm-strikethrough'
import {gfmTableFromMarkdown} from 'mdast-util-gfm-table'
import {gfmStrikethrough} from 'micromark-extension-gfm-strikethrough'
import {gfmTable} from 'micromark-extension-gfm-table'
import {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {boundContainers} from '../../plugins/container-depth.js'
import {nestingLimit} from '../../plugins/depth.js'
import {kbFromMarkdown, kbSyntax, reportKbProblems} from '../../plugins/index.js'
import {restoreKept} from '../../plugins/transform/kept.js'
import {capHeadings} from './gfm-to-kb/unsupported.js'
import {parseGuarded} from './guard.js'
import {messageFile, sortMessages} from './messages.js'
import {parseInSlices} from './slices/index.js'
import {syntaxVariants, tableConstruct} from './syntax.js'

/** The micromark extensions for a source: without tables when it cannot hold one (see `syntax.ts`). */
const extensionsFor = syntaxVariants([gfmTable(), gfmStrikethrough(), kbSyntax()], [tableConstruct])
const mdastExtensions = [gfmTableFromMarkdown(), gfmStrikethroughFromMarkdown(), kbFromMarkdown()]

declare module 'mdast' {
  interface RootData {
    /**
     * The messages of the `parseKb` that made the tree, in document order
     * (also on the VFile when it was given one). Not enumerable: serialising,
     * cloning or comparing the tree leaves them out.
     */
    messages?: VFileMessage[]
  }
}

/**
 * Parse dialect Markdown (synchronously). Never throws: problems (unclosed
 * block, unknown `data-node`, invalid colour, stray closing tag, nesting
 * deeper than `maxNesting`, ...) become messages with line, column and a
 * `ruleId` (`kb-unclosed-block`, `kb-unknown-node`, `kb-invalid-color`,
 * `kb-stray-closing-tag`, `kb-nesting-too-deep`, ...), on the tree's
 * `data.messages` and, when given a VFile, on `file.messages`; the text is
 * kept as `html` nodes. The tree never nests deeper than `maxNesting`, so
 * every serialiser takes it.
 */
export function parseKb(value: string | VFile): Root {
  const file = value instanceof VFile ? value : messageFile(value)
  const source = String(file.value ?? '')
  const before = file.messages.length
  const tree = parseGuarded(source, file, 'html', () => parseBounded(source, file))
  // This parse's messages in document order (the passes report construct by construct); one per line of a
  // hostile body can be more than a call takes arguments.
  const messages = sortMessages(file.messages.splice(before))
  for (const message of messages) file.messages.push(message)
  Object.defineProperty(tree, 'data', {
    value: {...tree.data, messages},
    enumerable: false,
    writable: true,
    configurable: true
  })
  return tree
}

/** One parse of dialect Markdown by micromark: a whole source or a part of one. */
export function parseDialect(source: string): Root {
  return fromMarkdown(source, {
    extensions: extensionsFor(source),
    mdastExtensions: [nestingLimit(source), ...mdastExtensions, nestingLimit(source)]
  })
}

function parseBounded(value: string, file: VFile): Root {
  const source = boundContainers(value)
  // Nesting is capped before the transforms (they walk the tree) and after them (pairing tags nests them).
  // A long table or list is parsed in slices (./slices): its events are not all held at once.
  const tree = parseInSlices(source, parseDialect)
  // A stray closing tag's lines, kept as CommonMark reads them (plugins/transform/stray.ts).
  restoreKept(tree, source)
  reportKbProblems(tree, file)
  if (source.includes('####')) capHeadings(tree, file, false)
  return tree
}
