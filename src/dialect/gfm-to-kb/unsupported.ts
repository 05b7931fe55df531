/**
 * GFM constructs the dialect cannot hold, converted to the closest form it
 * can, each with a warning that names the line: deeper headings, task list
 * items, footnotes, reference-style links, HTML outside the dialect.
 */
import type {Definition, FootnoteDefinition, ListItem, Nodes, Parent, PhrasingContent, Root, RootContent} from 'mdast'
import type {VFile} from 'vfile'
import {warn} from '../messages.js'
import {SKIP, walk} from './walk.js'
import {phrasingParents} from './html/context.js'

/**
 * Reports headings deeper than the platform's three levels; with `cap` (the
 * conversion) they also become level 3. Parsing the dialect only reports:
 * its serialiser writes them as level 3 anyway.
 */
export function capHeadings(tree: Root, file: VFile, cap = true): void {
  walk(tree, (node) => {
    if (node.type !== 'heading' || node.depth <= 3) return
    warn(
      file,
      node,
      'kb-heading-depth',
      `Heading level ${node.depth} is not supported by the platform; written as level 3.`
    )
    if (cap) node.depth = 3
  })
}

/** Task list items get a ☐/☑ prefix: the platform has no checkboxes. */
export function convertTaskItems(tree: Root, file: VFile): void {
  walk(tree, (item) => {
    if (item.type !== 'listItem' || item.checked === null || item.checked === undefined) return
    warn(
      file,
      item,
      'kb-task-list',
      'Task lists are not supported by the platform; the checkbox is written as ☐/☑ text.'
    )
    const prefix = {type: 'text' as const, value: item.checked ? '☑ ' : '☐ '}
    const first = item.children[0]
    if (first?.type === 'paragraph') first.children.unshift(prefix)
    else item.children.unshift({type: 'paragraph', children: [prefix]})
    item.checked = null
  })
}

/** Reference-style links and images become inline ones; their definitions go. */
export function inlineReferences(tree: Root): void {
  const definitions = new Map<string, Definition>()
  walk(tree, (node) => {
    // CommonMark: the first definition of a label wins.
    if (node.type === 'definition' && !definitions.has(node.identifier.toLowerCase()))
      definitions.set(node.identifier.toLowerCase(), node)
  })
  walk(tree, (node, index, parent) => {
    if (node.type !== 'linkReference' && node.type !== 'imageReference') return
    const definition = definitions.get(node.identifier.toLowerCase())
    if (!definition) return
    // An empty address (a site value kbsync could not fill in, see `site-syntax/hugo/addresses.ts`): the text alone.
    if (definition.url === '') {
      const text: PhrasingContent[] =
        node.type === 'linkReference' ? node.children : node.alt ? [{type: 'text', value: node.alt}] : []
      ;(parent as Parent).children.splice(index, 1, ...text)
      return index + text.length
    }
    const replacement: PhrasingContent =
      node.type === 'linkReference'
        ? {type: 'link', url: definition.url, title: definition.title, children: node.children, position: node.position}
        : {type: 'image', url: definition.url, title: definition.title, alt: node.alt, position: node.position}
    ;(parent as Parent).children[index] = replacement
  })
  removeWhere(tree, (node) => node.type === 'definition' && definitions.has(node.identifier.toLowerCase()))
}

/** Footnote references become `[n]`; their texts are gathered in a "Notes" list at the end. */
export function convertFootnotes(tree: Root, file: VFile): void {
  const definitions = new Map<string, FootnoteDefinition>()
  walk(tree, (node) => {
    if (node.type === 'footnoteDefinition') definitions.set(node.identifier, node)
  })
  const order: string[] = []
  walk(tree, (node, index, parent) => {
    if (node.type !== 'footnoteReference') return
    if (!order.includes(node.identifier)) order.push(node.identifier)
    warn(
      file,
      node,
      'kb-footnote',
      'Footnotes are not supported by the platform; written as a [n] reference and a notes list.'
    )
    ;(parent as Parent).children[index] = {
      type: 'text',
      value: `[${order.indexOf(node.identifier) + 1}]`,
      position: node.position
    }
  })
  removeWhere(tree, (node) => node.type === 'footnoteDefinition')
  const notes: ListItem[] = order.flatMap((id, i) => {
    const definition = definitions.get(id)
    return definition ? [{type: 'listItem', spread: false, children: labelled(`[${i + 1}] `, definition.children)}] : []
  })
  for (const [id, definition] of definitions) {
    if (!order.includes(id))
      warn(
        file,
        definition,
        'kb-footnote',
        `Footnote [^${id}] is never referenced; its text is kept in the notes list.`
      )
  }
  const unreferenced = [...definitions.keys()].filter((id) => !order.includes(id))
  for (const id of unreferenced)
    notes.push({type: 'listItem', spread: false, children: labelled(`[^${id}] `, definitions.get(id)!.children)})
  if (notes.length === 0) return
  tree.children.push({type: 'thematicBreak'}, {type: 'list', ordered: false, spread: false, children: notes})
}

function labelled(label: string, children: FootnoteDefinition['children']): ListItem['children'] {
  const [first, ...rest] = children
  if (first?.type === 'paragraph')
    return [{...first, children: [{type: 'text' as const, value: label}, ...first.children]}, ...rest]
  return [{type: 'paragraph' as const, children: [{type: 'text' as const, value: label.trimEnd()}]}, ...children]
}

/**
 * The last resort for HTML outside the dialect: `html/` converts every
 * `html` node it finds, so this only sees one a future pass might leave.
 * It never reaches a body raw: it is kept as visible text, reported.
 */
export function escapeForeignHtml(tree: Root, file: VFile): void {
  walk(tree, (node, index, parent) => {
    if (node.type !== 'html') return
    const value = node.value.trim()
    warn(
      file,
      node,
      'kb-foreign-html',
      `HTML outside the dialect (${preview(value)}) is not supported; it is kept as visible text.`
    )
    const text = {type: 'text' as const, value: node.value, position: node.position}
    parent.children[index] = isPhrasingParent(parent)
      ? text
      : ({type: 'paragraph', children: [text], position: node.position} as RootContent)
    return SKIP
  })
}

function isPhrasingParent(parent: Parent): boolean {
  return phrasingParents.has(parent.type)
}

function preview(value: string): string {
  const first = value.split('\n')[0]!
  return first.length > 40 ? first.slice(0, 40) + '…' : first
}

function removeWhere(tree: Root, test: (node: Nodes) => boolean): void {
  walk(tree, (node, index, parent) => {
    if (!test(node)) return
    parent.children.splice(index, 1)
    return index
  })
}
