/**
 * One fragment to mdast: parsed once with hast-util-from-html, its
 * positions moved to the source, its elements reported where the
 * conversion changes or drops them (`survey`), then converted with
 * hast-util-to-mdast and the handlers of `handlers.ts`.
 */
import type {Element, Root as HastRoot, RootContent as HastContent} from 'hast'
import {fromHtml} from 'hast-util-from-html'
import {toMdast} from 'hast-util-to-mdast'
import type {Nodes, Root, RootContent} from 'mdast'
import type {VFile} from 'vfile'
import {warn} from '../../messages.js'
import {parseComponentText} from './component-text.js'
import {componentAt, componentTag, isKnownComponent, isMaskedComponent, maskComponents} from './components.js'
import {dialectPhrasing, unmarkPhrasing, warnAt, type Conversion} from './context.js'
import {slotTag, sourcePosition, type Fragment} from './fragment.js'
import {attribute} from './attributes.js'
import {droppedWithWarning, handlersFor, isKnownElement} from './handlers.js'
import {linkLiterals} from './autolink.js'
import {normalize} from './normalize.js'
import {reportStrayEndTags} from './stray.js'
import {readableHtml} from './readable.js'
import {reportUnknownComponent} from '../components/unknown.js'

/** Deeper HTML than this is kept as its text: the converters recurse, and the dialect nests 100 levels at most. */
const maxDepth = 60

/**
 * More tags than this in one fragment are not parsed: hast-util-from-parse5
 * recurses (thousands of unclosed `<b>` overflow the stack) and
 * hast-util-to-mdast's whitespace pass grows with the square of long runs of
 * empty elements. Real pages stay far below it (a 300-row table holds ~2,000).
 */
export const maxTags = 4000

/** What a converted fragment gives: its nodes (flow or phrasing, as the fragment held). */
export interface Converted {
  nodes: RootContent[]
}

/** Converts `fragment` (see `fragment.ts`); messages go to `file`. */
export function convertFragment(fragment: Fragment, file: VFile): Converted {
  const masked = maskComponents(fragment.value)
  const conversion: Conversion = {file, slots: fragment.slots}
  const tags = masked.match(/<[A-Za-z]/g)?.length ?? 0
  const tree = tags <= maxTags ? parsed(masked) : undefined
  if (!tree)
    return asText(
      fragment,
      file,
      `HTML of more than ${maxTags} tags in one place, with no place to part it, is kept as its text (a \`<pre>\` as code) without its formatting; split it into smaller blocks.`
    )
  reportStrayEndTags(tree, masked, fragment, file)
  if (!survey(tree, fragment, conversion))
    return asText(fragment, file, `HTML nested deeper than ${maxDepth} elements is kept as its text only.`)
  const root = toMdast(tree, {handlers: handlersFor(conversion), nodeHandlers: {comment: () => undefined}}) as Root
  const kept = new Set<Nodes>(fragment.slots.flatMap((slot) => (slot.type === 'root' ? slot.children : [slot])))
  unmark(root, kept)
  normalize([root], conversion, kept)
  return {nodes: root.children}
}

/** The fragment parsed, or undefined when its nesting overflows the parser's call stack. */
function parsed(html: string): HastRoot | undefined {
  try {
    return fromHtml(html, {fragment: true})
  } catch (error) {
    if (error instanceof RangeError) return undefined
    throw error
  }
}

/** The fragment unparsed: its HTML made readable (`readable.ts`), the nodes between kept; reported. */
function asText(fragment: Fragment, file: VFile, reason: string): Converted {
  warn(file, fragment.html[0], 'kb-html-too-large', reason)
  const nodes = fragment.segments.flatMap(({node, verbatim}): RootContent[] => {
    if (!verbatim) return [node as RootContent]
    const readable = readableHtml((node as {value: string}).value, fragment.flow)
    for (const made of readable) made.position = node.position
    return readable
  })
  return {nodes}
}

/**
 * One pass over the parsed fragment before conversion: positions moved to
 * the source, components renamed for their handler, and a message for each
 * element the conversion unwraps or drops and each comment. False when the
 * fragment nests deeper than `maxDepth`.
 */
function survey(tree: HastRoot, fragment: Fragment, conversion: Conversion): boolean {
  tree.children = tree.children.filter((child) => !isEmptyInline(child))
  const stack: Array<{node: HastContent; depth: number}> = tree.children.map((node) => ({node, depth: 1})).reverse()
  for (let item = stack.pop(); item; item = stack.pop()) {
    const {node, depth} = item
    if (depth > maxDepth) return false
    const offset = node.position?.start.offset
    node.position = sourcePosition(fragment, node.position)
    if (node.type === 'comment') {
      conversion.file.info('HTML comment left out of the body (readers never saw it).', {
        place: node.position,
        ruleId: 'kb-html-comment',
        source: 'kbsync'
      })
      continue
    }
    if (node.type !== 'element') continue
    if (isMaskedComponent(node.tagName)) {
      // MDX parsed a component's text already (`mdx/settle.ts` names the component): it is not Markdown again.
      const parsed = node.properties.dataKbComponent !== undefined
      nameComponent(node, offset === undefined ? undefined : componentAt(fragment.value, offset), conversion)
      if (offset !== undefined && startsLine(fragment.value, offset)) node.properties.dataKbBlock = true
      if (!parsed) parseComponentText(node, fragment.slots, (position) => sourcePosition(fragment, position)?.start)
      // An empty element is no content to the whitespace pass, which would take the spaces around it (`a <Badge /> b`).
      if (node.children.length === 0) node.children = [emptySlot()]
    } else reportElement(node, conversion)
    if (node.children.some(isEmptyInline)) node.children = node.children.filter((child) => !isEmptyInline(child))
    const children = node.tagName === 'template' && 'content' in node ? [] : node.children
    for (let index = children.length - 1; index >= 0; index--) stack.push({node: children[index]!, depth: depth + 1})
  }
  return true
}

/** A slot standing for nothing (no node has its index): it keeps an empty component from counting as no content. */
function emptySlot(): Element {
  return {type: 'element', tagName: slotTag, properties: {dataI: -1}, children: [{type: 'text', value: '.'}]}
}

/** Text-level elements that show nothing when empty. */
const emptyInvisible = new Set([
  'span',
  'b',
  'strong',
  'i',
  'em',
  's',
  'del',
  'u',
  'code',
  'kbd',
  'samp',
  'var',
  'sup',
  'sub',
  'small',
  'mark',
  'font',
  'abbr',
  'cite',
  'ins',
  'strike',
  'tt',
  'big'
])

/**
 * An empty text-level element (`<a href=x></a>` without an id, `<b></b>`):
 * it shows nothing, and left in, long runs of them cost hast-util-to-mdast's
 * whitespace pass time in the square of their number.
 */
function isEmptyInline(node: HastContent): boolean {
  if (node.type !== 'element' || node.children.length > 0) return false
  if (node.tagName === 'a')
    return (
      node.properties.id === undefined && node.properties.name === undefined && node.properties.dataNode === undefined
    )
  return emptyInvisible.has(node.tagName)
}

/** Whether only spaces stand before `offset` on its line of `value`. */
function startsLine(value: string, offset: number): boolean {
  const lineStart = value.lastIndexOf('\n', offset - 1) + 1
  return value.slice(lineStart, offset).trim() === ''
}

function nameComponent(element: Element, name: string | undefined, conversion: Conversion): void {
  // A component from MDX names itself (`mdx/settle.ts`).
  const written = name ?? attribute(element, 'dataKbComponent') ?? element.tagName
  element.tagName = componentTag
  element.properties = {...element.properties, dataKbComponent: written}
  if (!isKnownComponent(written)) reportUnknownComponent(conversion.file, element, written)
}

function reportElement(element: Element, conversion: Conversion): void {
  const name = element.tagName
  if (name === slotTag) return
  if (name === 'sup' || name === 'sub') {
    warnAt(
      conversion,
      element,
      'kb-html-sup-sub',
      `\`<${name}>\` has no counterpart on the platform; its text is kept as ordinary text.`
    )
  } else if (!isKnownElement(name)) {
    warnAt(
      conversion,
      element,
      'kb-html-unwrapped',
      `\`<${name}>\` has no counterpart on the platform; its content is kept without it.`
    )
  } else if (droppedWithWarning(name)) {
    warnAt(conversion, element, 'kb-html-dropped', `\`<${name}>\` is left out: the platform does not run or show it.`)
  }
}

/** Takes the phrasing marks off the converted nodes and links their web addresses (not in the kept ones). */
function unmark(root: Root, kept: ReadonlySet<Nodes>): void {
  linkLiterals(root)
  const stack: Nodes[] = [...root.children]
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (dialectPhrasing.has(node.type)) unmarkPhrasing(node)
    if (kept.has(node) || !('children' in node)) continue
    linkLiterals(node)
    stack.push(...(node.children as Nodes[]))
  }
  for (const slot of kept) unmarkPhrasing(slot)
}
