/**
 * Cards and links laid out as cards or buttons: Starlight `<Card title
 * icon>`, `<LinkCard title href description>`, `<LinkButton href>`,
 * Mintlify `<Card title href icon>`; their grids (`<CardGrid>`,
 * `<CardGroup>`, `<Columns>`) are their sequence. A card becomes its title
 * (linked to its `href`) as a bold line, then its content; a link card the
 * link with its title, then its description; a button its link. Icons are
 * decoration and go.
 */
import type {Element} from 'hast'
import type {Handle, State} from 'hast-util-to-mdast'
import type {Link, Paragraph, PhrasingContent} from 'mdast'
import {attribute} from '../html/attributes.js'
import {isBlock, unwrapped} from './shared.js'

/** `children` linked to `href` when given (as written: links are resolved and checked later, like any other). */
function linked(
  state: State,
  element: Element,
  href: string | undefined,
  children: PhrasingContent[]
): PhrasingContent[] {
  if (href === undefined) return children
  const link: Link = {type: 'link', url: href, children}
  state.patch(element, link)
  return [link]
}

/** A card: its title, linked when it has an `href`, as a bold line, then its content. */
export const cardHandler: Handle = (state, element) => {
  const title = attribute(element, 'title')
  const href = attribute(element, 'href')
  if (title === undefined && href === undefined) return unwrapped(state, element)
  return unwrapped(state, element, linked(state, element, href, [{type: 'text', value: title ?? href!}]))
}

/** A link card: `[**title**](href)`, then its description and any content. */
export const linkCardHandler: Handle = (state, element) => {
  const title = attribute(element, 'title')
  const href = attribute(element, 'href')
  const description = attribute(element, 'description')
  const bold: PhrasingContent = {type: 'strong', children: [{type: 'text', value: title ?? href ?? ''}]}
  const children = linked(state, element, href, [bold])
  if (description !== undefined) children.push({type: 'text', value: ` — ${description}`})
  const line: Paragraph = {type: 'paragraph', children}
  state.patch(element, line)
  return [line, ...unwrapped(state, {...element, properties: {...element.properties, dataKbBlock: true}})]
}

/** A link button: a link with its text (a paragraph of it on a line of its own). */
export const linkButtonHandler: Handle = (state, element) => {
  const href = attribute(element, 'href')
  const content = state.all(element) as PhrasingContent[]
  if (href === undefined) return unwrapped(state, element)
  const link: Link = {type: 'link', url: href, children: content}
  state.patch(element, link)
  return isBlock(element) ? {type: 'paragraph', children: [link]} : link
}
