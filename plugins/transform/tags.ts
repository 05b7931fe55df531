/** Reading dialect tags back from `html` nodes, and small shared helpers. */
import type {Html, Nodes, PhrasingContent, Text} from 'mdast'
import type {Position} from 'unist'
import {reject, type Rejection} from '../construct.js'
import {colorTokens, type ColorToken} from '../types.js'
import {codes} from 'micromark-util-symbol'
import {readTag, type KbTag} from '../syntax/tag.js'
import {isDialectTag} from '../syntax/vocabulary.js'
import type {KbProblem} from './problems.js'

/** The tag an `html` node consists of, when it is exactly one tag. */
export function tagOf(node: Nodes): KbTag | undefined {
  if (node.type !== 'html' || node.value.charCodeAt(0) !== codes.lessThan) return undefined
  const found = readTag(node.value)
  return found && found.end === node.value.length ? found.tag : undefined
}

/** The tag of an `html` node if it is one of the dialect's. */
export function dialectTagOf(node: Nodes): KbTag | undefined {
  const tag = tagOf(node)
  return tag && isDialectTag(tag) ? tag : undefined
}

/** Whether a string is one of the 11 colour tokens (exact case). */
export function isColor(value: string | undefined): value is ColorToken {
  return value !== undefined && (colorTokens as readonly string[]).includes(value)
}

/** The colour token of `tag`'s `data-color` (a mark, a hint block), or the rejection of a missing or invalid one. */
export function colorOf(tag: KbTag): ColorToken | Rejection {
  const color = tag.attributes['data-color']
  if (isColor(color)) return color
  return reject(`Invalid colour \`${color ?? ''}\` (expected one of the 11 tokens)`, 'kb-invalid-color')
}

/** A position spanning from the start of `a` to the end of `b`. */
export function span(a: {position?: Position}, b: {position?: Position} | undefined): Position | undefined {
  if (!a.position) return undefined
  return {start: a.position.start, end: (b?.position ?? a.position).end}
}

/** A positive integer attribute, or undefined. */
function intAttribute(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined
  return Number.parseInt(value, 10)
}

/**
 * The size attribute `name` of `tag` in pixels; one that is there but not a
 * whole number is reported (it is left out of the node, so it would be lost).
 */
export function sizeAttribute(
  tag: KbTag,
  name: string,
  place: Position | undefined,
  problems: KbProblem[]
): number | undefined {
  const value = tag.attributes[name]
  const size = intAttribute(value)
  if (value !== undefined && size === undefined) {
    problems.push({
      reason: `\`${name}="${value}"\` on \`<${tag.name}>\` is not a number of pixels and is dropped`,
      ruleId: 'kb-invalid-attribute',
      place
    })
  }
  return size
}

/** An `html` node for a tag (used when a tag cannot become a construct). */
export type TagHtml = Html

/** `children` with each run of adjacent text nodes joined into one (keeping the first one's other fields). */
export function mergeText(children: PhrasingContent[]): PhrasingContent[] {
  const out: PhrasingContent[] = []
  for (const child of children) {
    const last = out[out.length - 1]
    if (child.type === 'text' && last && last.type === 'text')
      out[out.length - 1] = {...last, value: last.value + child.value} as Text
    else out.push(child)
  }
  return out
}

/**
 * The text of `nodes` as mdast-util-to-string gives it (values, image alts,
 * the text inside containers), walked with an explicit stack: the nodes
 * come from a body and may nest deeper than the call stack goes.
 */
export function textOf(nodes: readonly Nodes[]): string {
  let value = ''
  const stack = [...nodes].reverse()
  for (let node = stack.pop(); node; node = stack.pop()) {
    if ('value' in node) value += node.value
    else if ('alt' in node && node.alt) value += node.alt
    else if ('children' in node)
      for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index])
  }
  return value
}
