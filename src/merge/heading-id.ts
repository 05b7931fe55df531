/**
 * A heading whose id the author wrote after it (`## Title {#id}`: Hugo,
 * Docusaurus, MkDocs' attr_list). The dialect holds the id as an anchor at
 * the heading's start, which the author's form writes as a tag; patched word
 * by word as they are, the tag and `{#id}` differ, so the whole heading would
 * be rewritten with the tag. Taken off both, the words around the edit and
 * the author's `{#id}` stay.
 */

/** The heading's text without its id, and the id as the author wrote it. */
export interface HeadingIdParts {
  source: string
  before: string
  after: string
  /** The author's id, written again after the patched words. */
  suffix: string
}

const authorId = /[ \t]+\{#([^}\s]+)\}[ \t]*$/

/** The anchor tag the author's form gives the heading id `id`. */
function anchorTag(id: string): RegExp {
  const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`<a data-node="?anchorLink"? data-id="?${escaped}"? ?/>`)
}

/**
 * `source` (the heading in the file), `before` and `after` (the heading
 * written from base and from the platform) without the id, when the author
 * wrote it as `{#id}` and both sides keep its anchor; undefined otherwise.
 */
export function headingIdParts(source: string, before: string, after: string): HeadingIdParts | undefined {
  const own = authorId.exec(source)
  if (!own) return undefined
  const tag = anchorTag(own[1]!)
  if (!tag.test(before) || !tag.test(after)) return undefined
  return {
    source: source.slice(0, own.index),
    before: before.replace(tag, ''),
    after: after.replace(tag, ''),
    suffix: source.slice(own.index)
  }
}
