/**
 * End tags that close nothing (`</span>` with no `<span>`, a `</div>` the
 * author left over): the HTML parser ignores them without a word, so they
 * are found here. Each `</name>` of the fragment that does not end an
 * element of that name in the parsed tree, and is not inside a comment or
 * raw text, is reported; it is already out of the tree.
 */
import type {Element, Root as HastRoot, RootContent as HastContent} from 'hast'
import type {VFile} from 'vfile'
import {locate, slotTag, type Fragment} from './fragment.js'

/** Elements whose content the parser reads as text: an end tag written inside is not one. */
const rawText = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext'])

const endTag = /<\/([A-Za-z][A-Za-z0-9-]*)\s*>/g

/** Reports the stray end tags of `fragment` (`masked`: its text as parsed into `tree`). */
export function reportStrayEndTags(tree: HastRoot, masked: string, fragment: Fragment, file: VFile): void {
  if (!masked.includes('</')) return
  const ends = new Set<string>()
  const skipped: Array<[number, number]> = []
  const stack: HastContent[] = [...tree.children]
  for (let node = stack.pop(); node; node = stack.pop()) {
    // Elements the parser implied (`<tbody>`) have no position; their children do.
    const start = node.position?.start.offset ?? -1
    const end = node.position?.end.offset ?? -1
    if (node.type === 'comment') skipped.push([start, end])
    if (node.type !== 'element') continue
    ends.add(`${(node as Element).tagName}@${end}`)
    if (rawText.has(node.tagName)) skipped.push([start, end])
    else stack.push(...node.children)
  }
  for (const match of masked.matchAll(endTag)) {
    const at = match.index
    const name = match[1]!.toLowerCase()
    if (name === slotTag || ends.has(`${name}@${at + match[0].length}`)) continue
    if (skipped.some(([start, end]) => at >= start && at < end)) continue
    const written = fragment.value.slice(at, at + match[0].length)
    const message = file.message(
      `\`${written}\` closes no open element; it is left out. Remove it, or add the tag it should close.`,
      {
        place: locate(fragment, at),
        ruleId: 'kb-stray-closing-tag',
        source: 'kbsync'
      }
    )
    message.fatal = false
  }
}
