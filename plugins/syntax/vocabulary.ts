/**
 * The dialect's vocabulary: which tags are the dialect's (the tokenizer
 * makes them tags, whichever constructs a processor registers), which of
 * them are block tags, and the `data-node` values of the tag names that
 * constructs share. Constructs own what their tags become (see
 * `construct.ts`); this is only what the tags are.
 */
import type {KbTag} from './tag.js'

/** Tags the dialect owns at block level: each opens or closes a frame of the flow pairing. */
export const blockNames: ReadonlySet<string> = new Set(['div', 'details', 'summary', 'iframe', 'video'])

/** Inline tags that open and close a frame of the phrasing pairing (the others are leaves). */
export const inlinePairNames: ReadonlySet<string> = new Set(['u', 'mark', 'a'])

/**
 * The `data-node` values of the dialect, by the tag names constructs share:
 * a tag with another value is unknown to the dialect (reported); one with a
 * value here whose construct a processor does not register stays as written.
 */
export const dialectNodes: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['div', new Set(['hintBlock', 'attachmentsGroup'])],
  ['iframe', new Set(['drawio'])],
  ['a', new Set(['articleLink', 'attachment', 'anchorLink'])]
])

const imageAttributes = new Set(['src', 'alt', 'width', 'height'])

/** Tags the dialect owns (others stay ordinary HTML). */
export function isDialectTag(tag: KbTag): boolean {
  switch (tag.name) {
    case 'u':
    case 'mark':
    case 'details':
    case 'summary':
    case 'iframe':
    case 'video':
      return true
    case 'img':
      // Only the dialect's sized image; other <img> stay HTML.
      return (
        !tag.closing && 'src' in tag.attributes && Object.keys(tag.attributes).every((key) => imageAttributes.has(key))
      )
    case 'a':
    case 'div':
      return tag.closing || 'data-node' in tag.attributes
    default:
      return false
  }
}

/** Whether a dialect tag opens or closes a block construct. */
export function isBlockTag(tag: KbTag): boolean {
  return blockNames.has(tag.name) && isDialectTag(tag)
}
