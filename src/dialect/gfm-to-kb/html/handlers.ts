/**
 * The element handlers of the conversion: hast-util-to-mdast's own (which
 * already make paragraphs, headings, lists, tables, code, emphasis and
 * breaks) with the dialect's constructs, media and components on top.
 */
import type {Element} from 'hast'
import {defaultHandlers, type Handle, type State} from 'hast-util-to-mdast'
import type {Nodes} from 'mdast'
import {detailsHandler, divHandler} from './blocks.js'
import {componentHandler, componentTag} from './components.js'
import {dialectPhrasing, markPhrasing, type Conversion} from './context.js'
import {slotTag} from './fragment.js'
import {inlineCodeHandler, linkHandler, markHandler, underlineHandler} from './inline.js'
import {iframeHandler, imageHandler, pictureHandler, videoHandler} from './media.js'

/** Elements converted without a handler of their own: their content is kept as it is. */
const plain = new Set([
  'span',
  'center',
  'figure',
  'figcaption',
  'font',
  'small',
  'big',
  'abbr',
  'cite',
  'dfn',
  'time',
  'label',
  'sup',
  'sub'
])

/** Elements left out without a word: they carry no content of their own. */
const quietlyDropped = new Set(['source', 'track', 'col', 'colgroup', 'param', 'wbr', 'meta', 'link', 'base'])

const ignore = defaultHandlers.script

/** Handlers made once: they need no conversion state. */
const shared: Record<string, Handle> = {
  a: linkHandler,
  u: underlineHandler,
  ins: underlineHandler,
  details: detailsHandler,
  [componentTag]: componentHandler
}

/** The handlers for one fragment's conversion. */
export function handlersFor(conversion: Conversion): Record<string, Handle> {
  const image = imageHandler(conversion)
  const code = inlineCodeHandler(conversion)
  return {
    ...shared,
    mark: markHandler(conversion),
    div: divHandler(conversion),
    code,
    kbd: code,
    samp: code,
    var: code,
    tt: code,
    img: image,
    image,
    picture: pictureHandler(conversion),
    video: videoHandler(conversion),
    iframe: iframeHandler(conversion),
    [slotTag]: slotHandler(conversion)
  }
}

/** A slot: the node (or nodes) it stands for, as parsed. */
function slotHandler(conversion: Conversion): Handle {
  return (_: State, element: Element) => {
    const node = conversion.slots[Number(element.properties.dataI)] as Nodes | undefined
    if (!node) return undefined
    // A root holds what a component's text parsed to.
    const nodes = node.type === 'root' ? (node.children as Nodes[]) : [node]
    return nodes.map((child) => (dialectPhrasing.has(child.type) ? markPhrasing(child) : child))
  }
}

/** Whether elements named `name` are converted (or unwrapped) as the HTML element they are, without a warning. */
export function isKnownElement(name: string): boolean {
  return (
    plain.has(name) ||
    Object.hasOwn(shared, name) ||
    Object.hasOwn(defaultHandlers, name) ||
    ['img', 'picture', 'video', 'iframe'].includes(name)
  )
}

/** Whether `name` is an element the conversion drops (scripts, styles, forms of metadata) and says so. */
export function droppedWithWarning(name: string): boolean {
  return (
    (defaultHandlers as Record<string, Handle>)[name] === ignore &&
    !quietlyDropped.has(name) &&
    !Object.hasOwn(shared, name)
  )
}
