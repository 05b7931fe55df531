/**
 * List items in the platform's style: continuation lines indented
 * `max(4, marker + 1)`, items read back loose written loose, and the
 * spaces a marker may not be followed by left out before HTML.
 */
import type {List, ListItem, Nodes, Parents} from 'mdast'
import type {Handle, State} from 'mdast-util-to-markdown'
import {blankBetween} from '../to-markdown-adapter.js'
import {append} from '../transform/pairing.js'

const padless = new Set(['paragraph', 'heading', 'html', 'thematicBreak'])

/**
 * Whether a flow child has lines that may be read back as HTML: HTML, a
 * paragraph with a tag first (after another block), and those inside a
 * hint block or details, whose content is written at the item's indent.
 */
function startsWithHtml(child: Nodes): boolean {
  const stack = [child]
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === 'html' || (node.type === 'paragraph' && node.children[0]?.type === 'html')) return true
    if (blankInside.has(node.type)) append(stack, (node as Parents).children)
  }
  return false
}

/**
 * Whether a list item's marker is padded to the continuation indent, so its
 * content column is where the continuation lines are. A fence or a list on
 * the marker's line fixes the content column there. HTML keeps the spaces
 * past the content column in its value, so an HTML block on a continuation
 * line (`- a` then `    </div>`) would gain them on every pass; so would a
 * first HTML block of more than one line.
 */
function padded(node: ListItem): boolean {
  const first = node.children[0]
  if (first && !padless.has(first.type)) return true
  return node.children.some((child, index) =>
    index > 0 ? startsWithHtml(child) : child.type === 'html' && child.value.includes('\n')
  )
}

/**
 * Constructs written with blank lines inside at their parent's level (tag
 * lines around their content: `wrapFlow` in tag-writer.ts): an item holding one
 * and more is read back loose.
 */
const blankInside = new Set(['hintBlock', 'details'])

/**
 * The item as it will be read back: a tight item two of whose children
 * need a blank line between them (HTML that ends only at one, a paragraph
 * after a paragraph) is read back loose, so it is written loose, with a
 * blank line between all its children, as the next pass would write it.
 */
function writtenSpread(node: ListItem, state: State): ListItem {
  if (node.spread || node.children.length < 2) return node
  if (node.children.some((child) => blankInside.has(child.type))) return {...node, spread: true}
  for (let index = 1; index < node.children.length; index++) {
    if (blankBetween(node.children[index - 1], node.children[index], node, state)) return {...node, spread: true}
  }
  return node
}

/** A list item whose continuation lines are indented `max(4, marker + 1)`. */
export const listItem: Handle = (node: ListItem, parent, state: State, info) => {
  let bullet = state.bulletCurrent || '-'
  const list = parent && parent.type === 'list' ? (parent as List) : undefined
  if (list && list.ordered) {
    const start = typeof list.start === 'number' && list.start > -1 ? list.start : 1
    // The item's index is on the index stack (`indexOf` would make a long ordered list quadratic).
    const index = state.indexStack[state.indexStack.length - 1]
    bullet = String(start + (state.options.incrementListMarker === false ? 0 : index)) + bullet
  }
  const size = Math.max(4, bullet.length + 1)
  const marker = padded(node) ? bullet + ' '.repeat(size - bullet.length) : bullet + ' '
  const tracker = state.createTracker(info)
  tracker.move(bullet + ' ')
  tracker.shift(size)
  const exit = state.enter('listItem')
  // Spaces before HTML on the marker's line would be read as part of the marker: they go.
  const html = node.children[0]?.type === 'html'
  const value = state.indentLines(
    state.containerFlow(writtenSpread(node, state), tracker.current()),
    (line, index, blank) => {
      if (index) return (blank ? '' : ' '.repeat(size)) + line
      return (blank ? bullet : marker) + (html ? line.replace(/^[ \t]+/, '') : line)
    }
  )
  exit()
  return value
}
