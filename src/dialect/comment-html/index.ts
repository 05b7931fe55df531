/**
 * `kbToCommentHtml`: the dialect to the HTML subset of task comments
 * (`i`, `br`, `code`, `b`, `s`, `div data-type=heading`, `q`,
 * `mark data-color=red|yellow|green|blue`, `ul`/`ol`/`li`, `a href`). Blocks
 * are separated by `<br>`; constructs the subset lacks are flattened to their
 * content (see docs/conversions.md).
 */
import type {Element, ElementContent, Properties} from 'hast'
import {toHtml} from 'hast-util-to-html'
import type {Nodes, Root, RootContent, TableRow} from 'mdast'
import {assertNesting} from '../../../plugins/depth.js'
import {defaultArticleUrl, defaultTopicUrl} from '../kb-to-gfm/index.js'
import {parseKb} from '../parse.js'
import {safeUrl} from '../to-html/url.js'
import {commentColors} from './colors.js'

export {commentColors, type CommentColor} from './colors.js'

/** The tags of the subset (what `kbToCommentHtml` may emit, with `href`, `data-type` and `data-color`). */
export const commentTags = ['i', 'br', 'code', 'b', 's', 'div', 'q', 'mark', 'ul', 'ol', 'li', 'a', 'button'] as const

const filesHost = 'https://files.pyrus.com/services/kb?Id='
const guid = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i

function el(tagName: string, properties: Properties, children: ElementContent[]): Element {
  return {type: 'element', tagName, properties, children}
}
const br = (): Element => el('br', {}, [])
const text = (value: string): ElementContent => ({type: 'text', value})

function link(url: string, children: ElementContent[]): ElementContent[] {
  const href = safeUrl(guid.test(url) ? filesHost + url : url)
  return href === undefined ? children : [el('a', {href}, children)]
}

/** Blocks one after the other, a `<br>` between two that are not lists or headings. */
function blocks(nodes: RootContent[]): ElementContent[] {
  const out: ElementContent[] = []
  for (const node of nodes) {
    const rendered = block(node)
    if (rendered.length === 0) continue
    const last = out.at(-1)
    if (
      last &&
      !(last.type === 'element' && ['ul', 'ol', 'div', 'br'].includes(last.tagName)) &&
      !(rendered[0]!.type === 'element' && ['ul', 'ol', 'div'].includes(rendered[0]!.tagName))
    )
      out.push(br())
    out.push(...rendered)
  }
  return out
}

function block(node: RootContent): ElementContent[] {
  switch (node.type) {
    case 'heading':
      return [el('div', {dataType: 'heading'}, inline(node.children))]
    case 'list':
      return [
        el(
          node.ordered ? 'ol' : 'ul',
          {},
          node.children.map((item) => el('li', {}, blocks((item as {children: RootContent[]}).children)))
        )
      ]
    case 'code':
      return [el('code', {}, lines(node.value))]
    case 'blockquote':
      return [el('q', {}, blocks(node.children))]
    case 'thematicBreak':
      return [br()]
    case 'table':
      return node.children.flatMap((row, index) => [...(index > 0 ? [br()] : []), ...tableRow(row)])
    case 'details':
    case 'hintBlock':
      return blocks(node.children as RootContent[])
    case 'detailsSummary':
      return [el('b', {}, inline(node.children))]
    case 'attachmentsGroup':
      return [
        el(
          'ul',
          {},
          node.children.map((a) => el('li', {}, link(a.url, [text(a.name)])))
        )
      ]
    case 'drawio':
      return link(node.url, [text('Diagram')])
    case 'video':
      return link(node.url, [text('Video')])
    case 'html':
      return lines(node.value)
    case 'paragraph':
      return inline(node.children)
    case 'definition':
    case 'footnoteDefinition':
      return []
    default:
      return inline([node])
  }
}

function tableRow(row: TableRow): ElementContent[] {
  return row.children.flatMap((cell, index) => [...(index > 0 ? [text(' | ')] : []), ...inline(cell.children)])
}

function lines(value: string): ElementContent[] {
  return value.split('\n').flatMap((line, index) => (index > 0 ? [br(), text(line)] : [text(line)]))
}

function inline(nodes: Nodes[]): ElementContent[] {
  return nodes.flatMap((node) => phrasing(node))
}

function phrasing(node: Nodes): ElementContent[] {
  switch (node.type) {
    case 'text':
      return lines(node.value)
    case 'emphasis':
      return [el('i', {}, inline(node.children))]
    case 'strong':
      return [el('b', {}, inline(node.children))]
    case 'delete':
      return [el('s', {}, inline(node.children))]
    case 'inlineCode':
      return [el('code', {}, [text(node.value)])]
    case 'break':
      return [br()]
    case 'link':
      return link(node.url, inline(node.children))
    case 'articleLink':
      return link(
        node.articleId === undefined ? defaultTopicUrl(node.topicId ?? '') : defaultArticleUrl(node.articleId),
        inline(node.children)
      )
    case 'mark':
      return [el('mark', {dataColor: commentColors[node.color] ?? 'yellow'}, inline(node.children))]
    case 'image':
      return link(node.url, [text(node.alt || 'Image')])
    case 'html':
      return lines(node.value)
    case 'anchorLink':
      return []
    default:
      return 'children' in node ? inline(node.children as Nodes[]) : 'value' in node ? lines(String(node.value)) : []
  }
}

/** Converts a dialect tree to the comment HTML subset; throws a `NestingError` for a tree nested deeper than `maxNesting`. */
export function kbTreeToCommentHtml(tree: Root): string {
  assertNesting(tree)
  return toHtml({type: 'root', children: blocks(tree.children)})
}

/** Converts dialect Markdown to the comment HTML subset. */
export function kbToCommentHtml(markdown: string): string {
  return kbTreeToCommentHtml(parseKb(markdown))
}
