/**
 * The provisional body of a link cycle's document, from the template of its
 * whole render (`render-slots.ts`) rather than from its tree: each link to a
 * document without an id yet is its text. A document of a cycle kept a
 * template from the scan, not its tree, so rendering that body from the tree
 * parsed it a second time (biome-docs: 50 provisional creates, their parses
 * an eighth of the push's time). The link's text is cut out of its tag: the
 * text between `<a data-node="articleLink" …>` and `</a>`. Out of the tag a
 * text can read as something else (`1. Intro` at a line start becomes a
 * list, `*` next to a letter changes what emphasis closes, `www.` next to a
 * word becomes a link, `&` and a name an entity), so a cut is taken only where
 * what touches the tag on either side can read as nothing but text; for any
 * other link the caller renders the tree, as before.
 */
import {articleLinkCloseTag, articleLinkIdAttributes, articleLinkOpenTag} from '../../../plugins/article-link.js'
import {fillSlots, plainId, type RenderTemplate} from './render-slots.js'

// An id no escaping changes, which the tag holds nowhere else: where the tag is cut, its text before and after the id.
const idMark = '0'

/** The open tags as the serializer writes them (`plugins/article-link.ts`), each cut where its id goes. */
const openTags = articleLinkIdAttributes.map((name) => {
  const [before, after] = articleLinkOpenTag(name, idMark).split(idMark) as [string, string]
  return {before, after}
})

/** Where a link's tag and text are in a template's text. */
interface LinkAt {
  start: number
  textStart: number
  textEnd: number
  end: number
}

/**
 * The provisional body `template` renders to with the ids of `idOf`: a
 * link to a document without one is its text (listed in `missingLinks`).
 * Undefined when a link cannot be cut so (see the module comment) or an id
 * would need escaping: the tree renders it then.
 */
export function fillWithoutUnknownLinks(
  template: RenderTemplate,
  idOf: (target: string) => string | undefined
): {body: string; missingLinks: string[]} | undefined {
  const {text} = template
  const missingLinks: string[] = []
  const body = fillSlots(template, (target, at) => {
    const id = idOf(target)
    if (id !== undefined) return plainId.test(id) ? id : undefined
    missingLinks.push(target)
    const link = linkAt(text, at)
    if (link === undefined || !cutsCleanly(text, link)) return undefined
    return {start: link.start, end: link.end, text: text.slice(link.textStart, link.textEnd)}
  })
  return body === undefined ? undefined : {body, missingLinks}
}

/** The link whose id goes at `slotAt` in `text`, if its tags are where the dialect writes them and its text holds no tag. */
function linkAt(text: string, slotAt: number): LinkAt | undefined {
  const open = openTags.find(
    ({before, after}) => text.startsWith(before, slotAt - before.length) && text.startsWith(after, slotAt)
  )
  if (open === undefined) return undefined
  const textStart = slotAt + open.after.length
  const textEnd = text.indexOf(articleLinkCloseTag, textStart)
  if (textEnd <= textStart || text.lastIndexOf('<', textEnd - 1) >= textStart) return undefined
  return {start: slotAt - open.before.length, textStart, textEnd, end: textEnd + articleLinkCloseTag.length}
}

const letterOrDigit = /^[\p{L}\p{N}]$/u
const letter = /^\p{L}$/u
const asciiPunctuation = /^[!-/:-@[-`{-~]$/
const space = /^\s$/
// What may follow a link's text: what ends a word. Not `_`, `*`, `~`: they would change what emphasis closes.
const wordEnd = /^[\s.,;:!?)]$/
// What a text joined to its neighbours must not hold: the start of a literal link or an entity.
const literalLinkOrEntity = /www\.|:\/\/|@|&/i
// A run of letters past which the words around a link are not read (then the link is not cut).
const wordReach = 512

/**
 * Whether the text of `link` reads the same out of its tag: its first and
 * last characters, with what is before and after the tag, start and end
 * nothing (no block at a line start, no emphasis delimiter next to a
 * letter, no literal link or entity across the seams).
 */
function cutsCleanly(text: string, link: LinkAt): boolean {
  const before = link.start > 0 ? text[link.start - 1]! : '\n'
  const after = link.end < text.length ? text[link.end]! : '\n'
  const first = text[link.textStart]!
  const last = text[link.textEnd - 1]!
  return (
    opensCleanly(text, link.textStart, before, first) && closesCleanly(text, link, last, after) && noLiteral(text, link)
  )
}

/** Whether the text starting `first` (at `at`) reads the same after `before` as after a tag. */
function opensCleanly(text: string, at: number, before: string, first: string): boolean {
  if (letterOrDigit.test(before) || (!asciiPunctuation.test(before) && !space.test(before)))
    return letterOrDigit.test(first)
  if (!space.test(before) && before !== '(') return false
  // Maybe a line's start: only what starts no block.
  if (letter.test(first) || first === '(') return true
  if (first === '`') return text[at + 1] !== '`' || text[at + 2] !== '`'
  if (first !== '*' && first !== '_') return false
  const next = text[at + 1] === first ? text[at + 2] : text[at + 1]
  return next !== undefined && letterOrDigit.test(next)
}

/** Whether the text ending `last` reads the same before `after` as before a tag. */
function closesCleanly(text: string, link: LinkAt, last: string, after: string): boolean {
  if (letterOrDigit.test(last)) return wordEnd.test(after) || (!asciiPunctuation.test(after) && !space.test(after))
  if (last === '*' || last === '_') return wordEnd.test(after) && !space.test(text[link.textEnd - 2] ?? ' ')
  return (last === '`' || last === ')') && wordEnd.test(after)
}

/** Whether no literal link or entity could form across the seams: the link's text and the words around it hold none. */
function noLiteral(text: string, link: LinkAt): boolean {
  let from = link.start
  while (from > 0 && link.start - from < wordReach && !space.test(text[from - 1]!)) from--
  let to = link.end
  while (to < text.length && to - link.end < wordReach && !space.test(text[to]!)) to++
  if (link.start - from >= wordReach || to - link.end >= wordReach) return false
  const joined = text.slice(from, link.start) + text.slice(link.textStart, link.textEnd) + text.slice(link.end, to)
  return !literalLinkOrEntity.test(joined)
}
