/**
 * Small components around text: Starlight `<Badge text>` (its text),
 * `<Icon>` (decoration: it goes), `<FileTree>` (the list it wraps),
 * Mintlify `<Frame caption>` (its content, then the caption) and
 * `<Tooltip tip>` (its text), Astro's `<Fragment>` (its content) and
 * `<Image src alt>` (an image, when its source is a literal).
 */
import type {Handle} from 'hast-util-to-mdast'
import type {Image, Nodes} from 'mdast'
import {attribute} from '../html/attributes.js'
import {isBlock, unwrapped} from './shared.js'

/** A badge: its `text`, then its content (in HTML, `<Badge />` is no empty element: what follows is its content). */
export const badgeHandler: Handle = (state, element) => {
  const text = attribute(element, 'text')
  const content = unwrapped(state, element)
  return text === undefined ? content : [{type: 'text', value: text}, ...content]
}

/** An icon: nothing. */
export const iconHandler: Handle = () => []

/** A frame: its content, then its caption (in italics) when it has one. */
export const frameHandler: Handle = (state, element) => {
  const caption = attribute(element, 'caption')
  const content: Nodes[] = unwrapped(state, {...element, properties: {...element.properties, dataKbBlock: true}})
  if (caption === undefined) return content
  return [...content, {type: 'paragraph', children: [{type: 'emphasis', children: [{type: 'text', value: caption}]}]}]
}

/** What only lays its content out: the content. */
export const transparentHandler: Handle = (state, element) => unwrapped(state, element)

/** An image component: the image its `src` names (one imported by a variable has no static source, and goes). */
export const imageHandler: Handle = (state, element) => {
  const src = attribute(element, 'src')
  if (src === undefined) return unwrapped(state, element)
  const image: Image = {
    type: 'image',
    url: src,
    alt: attribute(element, 'alt') ?? '',
    title: attribute(element, 'title') ?? null
  }
  state.patch(element, image)
  return isBlock(element) ? {type: 'paragraph', children: [image]} : image
}
