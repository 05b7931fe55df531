/**
 * Markdown written inside a component. MDX (Docusaurus, Mintlify) reads
 * the text of `<Note>…</Note>` as Markdown, while CommonMark makes the
 * whole block one piece of HTML: `**bold**` and `[a](b)` would reach
 * readers with their marks. So each text of a component is parsed as
 * Markdown (as the rest of the body is) and stands in the fragment as a
 * slot for what it parsed to.
 */
import type {Element, ElementContent, Text as HastText} from 'hast'
import type {Nodes, Root} from 'mdast'
import {fromMarkdown} from 'mdast-util-from-markdown'
import type {Point, Position} from 'unist'
import {boundContainers} from '../../../../plugins/container-depth.js'
import {nestingLimit} from '../../../../plugins/depth.js'
import {syntaxFor, treeExtensions} from '../extensions.js'
import {slotTag} from './fragment.js'

/** Marks that make a text worth parsing: without any, Markdown reads it as the same text. */
const markdownSyntax = /[*_`[\]!<>#|~\\&]|^\s*(?:[-+]|\d+[.)])\s|\n\s*\n/m

/** `value` without the indentation its lines share (HTML is indented for its tags; Markdown would read code). */
function dedent(value: string): string {
  const lines = value.split('\n')
  const indents = lines.filter((line) => line.trim() !== '').map((line) => /^[ \t]*/.exec(line)![0].length)
  const shared = indents.length > 0 ? Math.min(...indents) : 0
  return shared === 0
    ? value
    : lines.map((line) => line.slice(Math.min(shared, /^[ \t]*/.exec(line)![0].length))).join('\n')
}

/** Moves the positions of `tree`'s nodes from the text to the source, where the text starts at `start`. */
function place(nodes: Nodes[], start: Point | undefined): void {
  const stack = [...nodes]
  for (let node = stack.pop(); node; node = stack.pop()) {
    const position = node.position
    if (position && start) {
      const move = (point: Point): Point => ({
        line: point.line + start.line - 1,
        column: point.line === 1 ? point.column + start.column - 1 : point.column
      })
      node.position = {start: move(position.start), end: move(position.end)}
    } else delete node.position
    if ('children' in node) stack.push(...(node.children as Nodes[]))
  }
}

/** The Markdown `value` parses to: a lone paragraph's content, else its blocks (as a root). */
function parse(value: string, start: Point | undefined): Root {
  const source = boundContainers(dedent(value).trim())
  const tree = fromMarkdown(source, {
    extensions: syntaxFor(source),
    mdastExtensions: [nestingLimit(source, 'text'), ...treeExtensions, nestingLimit(source, 'text')]
  })
  const only = tree.children.length === 1 ? tree.children[0] : undefined
  const root: Root = only?.type === 'paragraph' ? {type: 'root', children: only.children} : tree
  place(root.children, start)
  return root
}

/**
 * Replaces the texts of `component` that hold Markdown by slots for what
 * they parse to (added to `slots`); components nested in it are read the
 * same way when the survey reaches them. `sourceStart` places a text's
 * position (of the fragment) in the source.
 */
export function parseComponentText(
  component: Element,
  slots: Nodes[],
  sourceStart: (position: Position | undefined) => Point | undefined
): void {
  component.children = component.children.map((child): ElementContent => {
    if (child.type !== 'text' || !markdownSyntax.test(child.value)) return child
    slots.push(parse(child.value, sourceStart(child.position)))
    const dot: HastText = {type: 'text', value: '.'}
    return {
      type: 'element',
      tagName: slotTag,
      properties: {dataI: slots.length - 1},
      children: [dot],
      position: child.position
    }
  })
}
