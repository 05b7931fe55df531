/** Helpers shared by the construct modules: serialising tags and registering with unified. */
import type {Parents, Root} from 'mdast'
import type {Handle, Info, Options as ToMarkdownExtension, State} from 'mdast-util-to-markdown'
import type {Processor} from 'unified'
import type {VFile} from 'vfile'
import {encodeAttribute} from './syntax/tag.js'
import {kbSyntax} from './syntax/micromark.js'
import {nestingLimit} from './depth.js'
import {kbFromMarkdown} from './from-markdown.js'
import {reportProblems} from './transform/problems.js'
import {handledTypes, unregisteredToHtml} from './unregistered.js'

/** ` name="value"` with the value escaped so it cannot leave the attribute. */
export function attribute(name: string, value: string | number | undefined): string {
  return value === undefined ? '' : ` ${name}="${encodeAttribute(String(value))}"`
}

/** Serialise phrasing children between an open and a close tag. */
export function wrapPhrasing(node: Parents, state: State, info: Info, open: string, close: string): string {
  const tracker = state.createTracker(info)
  let value = tracker.move(open)
  value += tracker.move(state.containerPhrasing(node, {...tracker.current(), before: '>', after: '<'}))
  value += tracker.move(close)
  return value
}

/** Serialise block children between tag lines, blank lines around the content. */
export function wrapFlow(node: Parents, state: State, info: Info, open: string, close: string): string {
  const tracker = state.createTracker(info)
  tracker.move(open + '\n\n')
  const inner = state.containerFlow(node as Parameters<State["containerFlow"]>[0], tracker.current())
  return open + '\n\n' + (inner ? inner + '\n\n' : '') + close
}

/** A handler table entry typed loosely for custom node types. */
export type KbHandle = Handle

/**
 * `handle` with a `peek`. To know what follows a phrasing node,
 * mdast-util-to-markdown serialises its next sibling (and all inside it)
 * once more just for the first character, unless the sibling's handler has
 * a `peek` that answers it. The dialect's tags start with `<`.
 */
export function withPeek(handle: KbHandle, peek: KbHandle = () => '<'): KbHandle {
  return Object.assign(handle, {peek})
}

// Per processor (by its data): the node types its construct plugins serialise. A processor is here once the
// dialect's syntax and tree building are registered on it.
const handledByProcessor = new WeakMap<object, Set<string>>()

/**
 * Register the dialect's syntax and tree building on a processor (once per
 * processor, whichever construct plugin comes first) and add `toMarkdown`.
 * Returns the transformer that turns the nodes no plugin on the processor
 * serialises back into their source, and moves parse problems onto the file.
 */
export function registerKb(processor: Processor<any, any, any, any, any>, toMarkdown: ToMarkdownExtension[]) {
  const data = processor.data()
  const micromarkExtensions = (data.micromarkExtensions ||= [])
  const fromMarkdownExtensions = (data.fromMarkdownExtensions ||= [])
  const toMarkdownExtensions = (data.toMarkdownExtensions ||= [])
  let handled = handledByProcessor.get(data)
  if (!handled) {
    handledByProcessor.set(data, (handled = new Set()))
    micromarkExtensions.push(kbSyntax())
    // The source is not at hand here: a capped subtree keeps its text values, as text.
    fromMarkdownExtensions.push(nestingLimit(undefined, 'text'), kbFromMarkdown(), nestingLimit(undefined, 'text'))
  }
  toMarkdownExtensions.push(...toMarkdown)
  for (const type of handledTypes(toMarkdown)) handled.add(type)
  const types = handled
  return (tree: Root, file: VFile) => {
    // Every construct plugin has attached by now: `types` holds what all of them serialise.
    unregisteredToHtml(tree, String(file.value ?? ''), types)
    reportProblems(tree, file)
  }
}
