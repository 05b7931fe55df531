/**
 * Heading ids written for a docs site: `## Title {#custom-id}` (Docusaurus,
 * MkDocs attr_list, kramdown, Hugo; also `{ #id .class }` and `{: #id}`),
 * and kramdown's `{: #id}` on the line under a heading. The site shows no
 * braces there but lets links reach the heading by that id, so the id
 * becomes the dialect's anchor at the heading's start and the braces go.
 */
import type {Heading, Root, RootContent} from 'mdast'
import type {AnchorLink} from '../../../../plugins/types.js'
import {walk} from '../walk.js'

// At the end of a heading's text: `{#id}`, `{: #id}`, `{ #id .class key=value }`.
const trailingId = /[ \t]*\{:?[ \t]*#([\w.:-]+)(?:[ \t][^{}\n]*)?\}[ \t]*$/
// A paragraph that is only a kramdown attribute list naming an id.
const idLine = /^\{:[ \t]*#([\w.:-]+)(?:[ \t][^{}\n]*)?\}$/

/** Turns the heading ids of `tree` into anchors (see the module comment). */
export function headingIdsToAnchors(tree: Root): void {
  walk(tree, (node, index, parent) => {
    if (node.type === 'heading') {
      const last = node.children[node.children.length - 1]
      const match = last?.type === 'text' ? trailingId.exec(last.value) : null
      if (!match || last?.type !== 'text') return
      last.value = last.value.slice(0, match.index)
      if (last.value === '') node.children.pop()
      addAnchor(node, match[1]!)
      return
    }
    // kramdown: `{: #id}` alone on the line under the heading it names.
    const before = parent.children[index - 1] as RootContent | undefined
    if (node.type !== 'paragraph' || before?.type !== 'heading' || node.children.length !== 1) return
    const only = node.children[0]
    const match = only?.type === 'text' ? idLine.exec(only.value.trim()) : null
    if (!match) return
    addAnchor(before, match[1]!)
    parent.children.splice(index, 1)
    return index
  })
}

function addAnchor(heading: Heading, identifier: string): void {
  const anchor: AnchorLink = {type: 'anchorLink', identifier}
  heading.children.unshift(anchor)
}
