/**
 * Text and hard breaks in the platform's style: every `_` written `\_`,
 * and a line ending before a dialect block tag written as a space, so the
 * tag does not start a line of tags (a block of its own) when read back.
 */
import type {Parents, Text} from 'mdast'
import {defaultHandlers, type Handle, type Info, type State} from 'mdast-util-to-markdown'
import {readTag} from '../syntax/tag.js'
import {isBlockTag} from '../syntax/vocabulary.js'
import {inRawConstruct, isUnsafeCharacter, safe} from '../to-markdown-adapter.js'

/**
 * Text made safe, with every `_` written `\_` as the platform does
 * (mdast-util-to-markdown leaves intraword underscores bare).
 */
export function safeText(state: State, value: string, info: Info): string {
  if (!value.includes('_') || inRawConstruct(state)) return safe(state, value, info)
  const parts = value.split('_')
  let out = ''
  for (let index = 0; index < parts.length; index++) {
    const before = index === 0 ? info.before : '_'
    const after = index === parts.length - 1 ? info.after : '_'
    out += safe(state, parts[index], {...info, before, after})
    if (index < parts.length - 1) out += '\\_'
  }
  return out
}

/**
 * The first character of a text's serialisation: all container-phrasing
 * wants when it looks ahead from the node before (without a `peek` it
 * serialises the text twice). Only characters some unsafe pattern names are
 * escaped or encoded (`safeText` adds `\` before `_`, one of them), so a
 * text starting with any other character starts with it; the rest is
 * serialised in full, as before.
 */
const textPeek: Handle = (node: Text, _, state, info) => {
  const first = node.value.charAt(0)
  if (first === '' || isUnsafeCharacter(state, first)) return safeText(state, node.value, info)
  return node.value
}

/**
 * Text. Before HTML that could start a block, mdast-util-to-markdown turns
 * the line ending that ends a text into a space, after the text was
 * escaped: the text is escaped for that space (`|` then a space is escaped,
 * `|` then a line ending is not), or the next pass would escape it. A
 * dialect block tag starts a block too (a line of tags): before one, the
 * line ending is a space here.
 */
export const text: Handle = Object.assign(
  (node: Text, parent: Parents | undefined, state: State, info: Info) => {
    const index = state.indexStack[state.indexStack.length - 1]
    const leading = /^(?:\r?\n|\r)/.exec(node.value)
    if (leading && parent && startsTagLine(parent, index)) {
      // `</details>` then a line ending would be a line of tags: a space keeps the paragraph.
      return ' ' + safeText(state, node.value.slice(leading[0].length), {...info, before: ' '})
    }
    const ending = /(?:\r?\n|\r)$/.exec(node.value)
    const next = ending && parent ? parent.children[index + 1] : undefined
    if (!ending || !next || next.type !== 'html') return safeText(state, node.value, info)
    const value = safeText(state, node.value.slice(0, ending.index), {...info, after: ' '})
    return value + (startsBlockTag(next.value) ? ' ' : ending[0])
  },
  {peek: textPeek}
)

/**
 * Whether the children of a paragraph before `index` are tags and blank
 * text only, the first a block tag: written with their line endings, the
 * first line would be a line of tags. Their line endings are written as
 * spaces, up to the first text.
 */
function startsTagLine(parent: Parents, index: number): boolean {
  if (parent.type !== 'paragraph' || index < 1) return false
  let end = tagPrefixes.get(parent.children)
  if (end === undefined) tagPrefixes.set(parent.children, (end = tagPrefix(parent)))
  return index <= end
}

/**
 * Per paragraph (by its children), the end of its run of tags and blank
 * text from a block tag first (0 when it has none): found once, not once
 * per text of the paragraph.
 */
const tagPrefixes = new WeakMap<object, number>()

function tagPrefix(parent: Parents): number {
  const first = parent.children[0]
  if (first.type !== 'html' || !startsBlockTag(first.value)) return 0
  let end = 1
  for (; end < parent.children.length; end++) {
    const child = parent.children[end]
    if (child.type !== 'html' && (child.type !== 'text' || child.value.trim() !== '')) break
  }
  return end
}

/**
 * A hard break, but before a dialect block tag a space: after a break the
 * tag would start a line of tags, read as a block of its own.
 */
export const lineBreak: Handle = (node, parent: Parents | undefined, state, info) => {
  // Called for the node before it too (to learn its first character): then the index stack is that node's.
  const index = state.indexStack[state.indexStack.length - 1]
  const next = parent?.children[parent.children[index] === node ? index + 1 : index + 2]
  if (next && next.type === 'html' && startsBlockTag(next.value)) return ' '
  return defaultHandlers.break(node, parent, state, info)
}

/** Whether `value` starts with a block tag of the dialect. */
function startsBlockTag(value: string): boolean {
  const found = readTag(value)
  return found !== undefined && isBlockTag(found.tag)
}
