/**
 * The ids of a page's headings. A heading holding one of the dialect's
 * anchors (`## <a data-node="anchorLink" data-id="setup" />Setup`, what
 * `{#setup}` becomes) is reached by that anchor, as docs sites reach a
 * heading with an explicit id, and gets none of its own; every other heading
 * gets the slug of its text, unique in the page and never an anchor's id.
 */
import type {Heading, Root} from 'mdast'
import {toString} from 'mdast-util-to-string'
import {visit} from 'unist-util-visit'
import type {AnchorLink} from '../../../plugins/types.js'
import {Slugger} from './slug.js'

/** The id of each heading of `tree` that gets one (before the clobber prefix). */
export function headingIds(tree: Root): Map<Heading, string> {
  const slugger = new Slugger()
  visit(tree, 'anchorLink', (node: AnchorLink) => slugger.reserve(node.identifier))
  const ids = new Map<Heading, string>()
  visit(tree, 'heading', (heading: Heading) => {
    if (holdsAnchor(heading)) return
    const id = slugger.slug(toString(heading, {includeImageAlt: false}))
    // A heading of only punctuation or emoji has no slug; an empty id would be invalid HTML.
    if (id !== '') ids.set(heading, id)
  })
  return ids
}

function holdsAnchor(heading: Heading): boolean {
  let found = false
  visit(heading, 'anchorLink', () => {
    found = true
  })
  return found
}
