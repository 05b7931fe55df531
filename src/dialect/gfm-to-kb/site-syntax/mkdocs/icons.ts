/**
 * Emoji and icon shortcodes (pymdownx.emoji, as Material for MkDocs sets it
 * up; GitHub reads the emoji ones too): `:smile:` and every other gemoji
 * name become the emoji; icon shortcodes of the icon sets Material ships,
 * `:material-check:`, `:fontawesome-solid-heart:`, `:octicons-heart-16:`,
 * `:simple-github:`, become an emoji that clearly means the same (a small
 * table of common icons, else the gemoji of the icon's name; brand logos
 * have none) or are left out, with one warning per document. An attribute
 * list right after an icon (`:material-x:{ .lg .middle }`) styles it and
 * goes with it. Only text is read: code and inline code keep their colons,
 * and so do `10:30:45` and `std::vec::Vec` (a shortcode needs a known name,
 * and no letter, digit or colon right outside its colons).
 */
import type {Root, Text} from 'mdast'
import {nameToEmoji} from 'gemoji'
import type {VFile} from 'vfile'
import {walk} from '../../walk.js'
import {placeIn, type Place} from '../text-matches.js'
import {readAttrList} from './attr-list-syntax.js'
import {iconEmoji} from './icon-names.js'

// A name between colons; where it may stand is checked in code (no lookbehind scans).
const shortcode = /:([+\w-]{1,100}):/g

/** Cheap test: whether `source` may hold a shortcode at all. */
export const mayHoldShortcode = /:[+\w-]{1,100}:/

/** Replaces the emoji and icon shortcodes of `tree` (see the module comment), warning on `file` about icons left out. */
export function replaceShortcodes(tree: Root, file: VFile): void {
  const dropped: string[] = []
  let first: Place | undefined
  walk(tree, (node) => {
    if (node.type !== 'text' || !node.value.includes(':')) return
    const result = replaceIn(node)
    if (result.dropped.length === 0) return
    dropped.push(...result.dropped)
    first ??= result.first
  })
  if (dropped.length === 0) return
  const named = [...new Set(dropped)].slice(0, 3).map((name) => `\`:${name}:\``)
  const more = new Set(dropped).size > 3 ? ' …' : ''
  const message = file.message(
    `${dropped.length} icon${dropped.length === 1 ? '' : 's'} with no emoji of the same meaning left out (${named.join(', ')}${more}), the first here: the platform has no icon fonts. Write an emoji (\`:white_check_mark:\`) or words instead.`,
    {place: first, ruleId: 'kb-icon-dropped', source: 'kbsync'}
  )
  message.fatal = false
}

/** The shortcodes of one text node replaced; answers the icons left out and where the first was. */
function replaceIn(node: Text): {dropped: string[]; first?: Place} {
  const {value} = node
  const dropped: string[] = []
  let first: Place | undefined
  let result = ''
  let last = 0
  shortcode.lastIndex = 0
  for (let match = shortcode.exec(value); match; match = shortcode.exec(value)) {
    const start = match.index
    let end = start + match[0].length
    const name = match[1]!
    const emoji = standsAlone(value, start, end) ? emojiOf(name) : undefined
    if (emoji === undefined) {
      // Not a shortcode: the closing colon may open the next one (`a:b:smile:`).
      shortcode.lastIndex = start + 1
      continue
    }
    // An attribute list right after an icon styles it: it goes with it.
    const list = value[end] === '{' ? readAttrList(value, end) : undefined
    if (list) end = list.end
    // An icon left out takes one space beside it along (`:material-x: Text` is `Text`).
    if (emoji === '' && value[end] === ' ' && (start === 0 || value[start - 1] === ' ')) end++
    result += value.slice(last, start) + emoji
    last = end
    shortcode.lastIndex = end
    if (emoji === '') {
      dropped.push(name)
      first ??= placeIn(node, start)
    }
  }
  if (last === 0) return {dropped}
  node.value = result + value.slice(last)
  return first ? {dropped, first} : {dropped}
}

/** Whether the shortcode at `start`..`end` stands apart from the text around it (`10:30:45` does not). */
function standsAlone(value: string, start: number, end: number): boolean {
  const before = value[start - 1]
  const after = value[end]
  return (before === undefined || !/[\w:]/.test(before)) && (after === undefined || !/[\w:]/.test(after))
}

/** The emoji of a shortcode's name, `''` for an icon that has none, undefined for no shortcode. */
function emojiOf(name: string): string | undefined {
  if (Object.hasOwn(nameToEmoji, name)) return nameToEmoji[name]
  return iconEmoji(name)
}
