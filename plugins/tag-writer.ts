/** Writing the dialect's tags in to-markdown handlers: attributes, and content between an open and a close tag. */
import type {Parents} from 'mdast'
import type {Handle, Info, State} from 'mdast-util-to-markdown'
import {encodeAttribute} from './syntax/tag.js'

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
  const inner = state.containerFlow(node as Parameters<State['containerFlow']>[0], tracker.current())
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
