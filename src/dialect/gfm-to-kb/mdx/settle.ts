/**
 * The MDX nodes of a parsed tree made what the rest of the conversion
 * reads: ESM (`import`, `export`) goes; an expression (`{…}`) becomes the
 * text of its static value, or goes (a comment silently, code with one
 * counted warning); a JSX element becomes `html` nodes for its tags around
 * its children (still the Markdown MDX parsed), as if written in HTML, so
 * that every component has one meaning whichever way it was written
 * (`../components/`). Iterative: any depth of nesting.
 */
import type {Program} from 'estree'
import type {Html, Nodes, Parents, Root, RootContent} from 'mdast'
import type {MdxFlowExpression, MdxTextExpression} from 'mdast-util-mdx-expression'
import type {MdxJsxFlowElement, MdxJsxTextElement} from 'mdast-util-mdx-jsx'
import {htmlVoidElements} from 'html-void-elements'
import type {Position} from 'unist'
import type {VFile} from 'vfile'
import {warn} from '../../messages.js'
import {attributesHtml, contentHtml, type Lost} from './attributes.js'
import {importedPaths, readProgram, renderedText, type Scope} from './static-value.js'

type JsxElement = MdxJsxFlowElement | MdxJsxTextElement
type Expression = MdxFlowExpression | MdxTextExpression

const voidElements = new Set(htmlVoidElements)

/** The tag a component is written with: a custom element's name (`../html/components.ts` reads it as one). */
const componentTag = 'x-component'

/** The first thing an MDX tree lost, and how many. */
interface Losses {
  count: number
  first?: {what: string; position?: Position}
}

/** What the walk carries: the losses, and the paths the page's imports bind names to. */
interface Walk {
  losses: Losses
  scope: Map<string, string>
}

/** Settles the MDX nodes of `tree` (see the module comment); one warning on `file` counts what was lost. */
export function settleMdx(tree: Root, file: VFile): void {
  const losses: Losses = {count: 0}
  const walk: Walk = {losses, scope: new Map()}
  // ESM stands at the top level: its imports are known before any element is read.
  for (const child of tree.children)
    if (child.type === 'mdxjsEsm') importedPaths(child.data?.estree as Program | undefined, walk.scope)
  const stack: Parents[] = [tree]
  for (let parent = stack.pop(); parent; parent = stack.pop()) {
    const children = parent.children as Nodes[]
    for (let index = 0; index < children.length;) {
      const replacement = settle(children[index]!, parent, walk)
      if (replacement === undefined) {
        const child = children[index]!
        if ('children' in child) stack.push(child)
        index++
        continue
      }
      children.splice(index, 1, ...replacement)
      // A JSX element's opening tag is settled; its children (now here) are visited next.
      if (replacement[0]?.type === 'html') index++
    }
  }
  if (losses.count > 0 && losses.first) {
    const {count, first} = losses
    warn(
      file,
      {type: 'mdx', position: first.position},
      'kb-mdx-expression',
      `${count} MDX expression${count === 1 ? '' : 's'} left out, the first here (${first.what}): kbsync does not run JavaScript, and only literal values (strings, numbers, arrays and objects of them) are read. Write the text the expression stands for.`
    )
  }
}

/** What replaces `node`, or undefined when it is no MDX node. */
function settle(node: Nodes, parent: Parents, {losses, scope}: Walk): Nodes[] | undefined {
  switch (node.type) {
    case 'mdxjsEsm':
      return []
    case 'mdxFlowExpression':
    case 'mdxTextExpression':
      return expressionText(node, parent, losses)
    case 'mdxJsxFlowElement':
    case 'mdxJsxTextElement':
      return elementNodes(node, losses, scope)
    default:
      return undefined
  }
}

function lose(losses: Losses, lost: Lost, position: Position | undefined): void {
  if (lost.length === 0) return
  losses.count += lost.length
  // Parents are visited in no document order: the first is the one that stands first.
  if (!losses.first || before(position, losses.first.position)) losses.first = {what: lost[0]!, position}
}

/** Whether `a` starts before `b` in the document (an unplaced one never does). */
function before(a: Position | undefined, b: Position | undefined): boolean {
  if (!a) return false
  if (!b) return true
  return a.start.line - b.start.line < 0 || (a.start.line === b.start.line && a.start.column < b.start.column)
}

/** The text an expression shows (a paragraph of it in a block), or nothing. */
function expressionText(node: Expression, parent: Parents, losses: Losses): Nodes[] {
  const reading = readProgram(node.data?.estree as Program | undefined)
  const text = reading.kind === 'value' ? renderedText(reading.value) : ''
  if (text === undefined || reading.kind === 'dynamic') {
    const source = node.value.trim()
    lose(losses, [`\`{${source.length > 40 ? `${source.slice(0, 40)}…` : source}}\``], node.position)
    return []
  }
  if (text === '') return []
  const value = {type: 'text' as const, value: text, position: node.position}
  return node.type === 'mdxTextExpression' || parent.type === 'paragraph'
    ? [value]
    : [{type: 'paragraph', children: [value], position: node.position}]
}

/** A JSX element as `html` nodes for its tags around its children; a fragment (`<>…</>`) as its children. */
function elementNodes(node: JsxElement, losses: Losses, scope: Scope): Nodes[] {
  if (!node.name) return node.children as RootContent[]
  const lost: Lost = []
  const inner = contentHtml(node.name, node.attributes, lost)
  const children: Nodes[] =
    inner === undefined || node.children.length > 0
      ? node.children
      : [{type: 'html', value: inner, position: node.position}]
  // A component is named in an attribute: its name may be a dialect tag's in another case (`<Details>`), or `Tabs.Item`.
  const component = /^[A-Z]|\./.test(node.name)
  const tag = component ? componentTag : node.name
  const named = component ? ` data-kb-component=${JSON.stringify(node.name)}` : ''
  const open = `<${tag}${named}${attributesHtml(node.name, node.attributes, lost, scope)}>`
  lose(losses, lost, node.position)
  const start = node.position?.start
  const end = node.position?.end
  const html = (value: string, position: Position | undefined): Html => ({type: 'html', value, position})
  if (voidElements.has(node.name)) return [html(open, node.position), ...children]
  const close = `</${tag}>`
  if (children.length === 0) return [html(open + close, node.position)]
  return [html(open, start && {start, end: start}), ...children, html(close, end && {start: end, end})]
}
