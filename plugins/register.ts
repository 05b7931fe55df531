/**
 * Registering the dialect on a unified processor, as remark-gfm registers
 * GFM: micromark, from-markdown and to-markdown extensions pushed onto the
 * processor's data. The dialect's tag syntax and its tree building are
 * registered once per processor, whichever construct plugin comes first;
 * the tree building pairs the tags of the constructs registered on that
 * processor (read when a tree is built, so after every plugin attached),
 * and its serialisation wins over a plugin's used after it (`dialectLast`).
 */
import type {Root} from 'mdast'
import type {} from 'remark-parse'
import type {} from 'remark-stringify'
import type {Processor} from 'unified'
import type {VFile} from 'vfile'
import type {KbConstruct} from './construct.js'
import {nestingLimit} from './depth.js'
import {kbFromMarkdownOf} from './from-markdown.js'
import {kbSyntax} from './syntax/micromark.js'
import {restoreKept} from './transform/kept.js'
import {reportProblems} from './transform/problems.js'

/** The processor a dialect plugin is attached to, as unified's `Plugin` type gives it (`this`). */
export type KbProcessor = Processor

/**
 * The transformer a dialect plugin returns: writes the pairs of constructs
 * the processor does not register back as they were (see
 * `transform/kept.ts`) and moves parse problems onto the file as messages.
 */
export type KbTransformer = (tree: Root, file: VFile) => undefined

// Per processor (by its data): the constructs registered on it, which its tree building pairs.
const constructsByProcessor = new WeakMap<object, KbConstruct[]>()

/**
 * Register `constructs` on `processor` (the tag syntax and tree building
 * too, the first time) and return its transformer.
 */
export function registerConstructs(processor: KbProcessor, constructs: readonly KbConstruct[]): KbTransformer {
  const data = processor.data()
  let registered = constructsByProcessor.get(data)
  if (!registered) {
    constructsByProcessor.set(data, (registered = []))
    ;(data.micromarkExtensions ||= []).push(kbSyntax())
    // The source is not at hand here: a capped subtree keeps its text values, as text.
    const capped = nestingLimit(undefined, 'text')
    ;(data.fromMarkdownExtensions ||= []).push(capped, kbFromMarkdownOf(registered), capped)
  }
  for (const construct of constructs) {
    registered.push(construct)
    ;(data.toMarkdownExtensions ||= []).push(construct.toMarkdown)
  }
  return (tree, file) => {
    dialectLast(data.toMarkdownExtensions, registered)
    restoreKept(tree, String(file.value ?? ''))
    reportProblems(tree, file)
    return undefined
  }
}

/**
 * Moves the dialect's to-markdown extensions after those of plugins used
 * after it (remark-gfm's table handler), in place, before the tree is
 * written: the dialect's handlers win whatever the order of `.use`, as
 * they do when the dialect comes last.
 */
function dialectLast(extensions: unknown[] | undefined, constructs: readonly KbConstruct[]): void {
  if (!extensions) return
  const own = new Set<unknown>(constructs.map((construct) => construct.toMarkdown))
  const ordered = [...extensions.filter((extension) => !own.has(extension)), ...extensions.filter((e) => own.has(e))]
  extensions.splice(0, extensions.length, ...ordered)
}

/** The remark plugin of one construct: registers it on the processor it is used on. */
export function constructPlugin(construct: KbConstruct): (this: KbProcessor) => KbTransformer {
  return function (this: KbProcessor) {
    return registerConstructs(this, [construct])
  }
}
