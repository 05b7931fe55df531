/**
 * A hint block whose colour changed on the web keeps its syntax: the word
 * of its opening line that names the colour (`:::tip`, `!!! note`,
 * `> [!NOTE]`, `<Aside type="caution">`, `{{% alert color="warning" %}}`,
 * `<Tip>` and its `</Tip>`) becomes a name of the new colour, in the same
 * case; the rest of the block stays the author's. A colour no docs tool
 * names (pink, purple) is written in the dialect's own tags, which every
 * syntax reads: the fence lines `:::caution` and `:::` (or `<Aside>` and
 * `</Aside>`) become them, the block's text still the author's.
 */
import type {Nodes} from 'mdast'
import {admonitionColor, admonitionColors, alertColors} from '../dialect/gfm-to-kb/alerts.js'
import {hintBlockCloseTag, hintBlockOpenTag} from '../../plugins/hint-block.js'
import {lineStartsOf, shellOf} from './blocks.js'
import type {Edit} from './splice.js'

/** The colour of a hint block, undefined for other nodes. */
function colourOf(node: Nodes): string | undefined {
  return node.type === 'hintBlock' ? node.color : undefined
}

/**
 * The edits that change only a container's shell, each a way to write it:
 * `[[]]` when the shell did not change, the candidate marker rewrites when
 * only a hint block's colour did (the proof picks the first that reads
 * back), undefined when the shell changed otherwise or no word of the
 * marker names the colour.
 */
export function shellEdits(source: string, base: Nodes, remote: Nodes): Edit[][] | undefined {
  if (shellOf(base) === shellOf(remote)) return [[]]
  const from = colourOf(base)
  const to = colourOf(remote)
  if (!from || !to || !base.position || shellOf({...base, color: to} as Nodes) !== shellOf(remote)) return undefined
  const starts = lineStartsOf(source)
  const lineText = (line: number): [number, string] => {
    const start = starts[line - 1] ?? source.length
    const end = line < starts.length ? starts[line]! - 1 : source.length
    return [start, source.slice(start, end)]
  }
  const [openStart, opening] = lineText(base.position.start.line)
  const word = [...opening.matchAll(/[A-Za-z]+/g)].find((m) => m[0] === from || admonitionColor(m[0]) === from)
  if (!word) return undefined
  const [closeStart, closing] = lineText(base.position.end.line)
  const closeAt = base.position.end.line === base.position.start.line ? -1 : closing.indexOf(`</${word[0]}`)
  const renamed = namesOf(to, word[0]).map((name) => {
    const edits = [{start: openStart + word.index, end: openStart + word.index + word[0].length, text: name}]
    if (closeAt !== -1) {
      const at = closeStart + closeAt + 2
      edits.push({start: at, end: at + word[0].length, text: name})
    }
    return edits
  })
  // The dialect's tags only around a body the fences leave alone: a closing line that is a fence or a tag of its own.
  if (base.position.end.line === base.position.start.line || !/^(?::{3,}|<\/[A-Za-z]+>)$/.test(closing.trim()))
    return renamed
  const tags = [
    {start: openStart, end: openStart + opening.length, text: hintBlockOpenTag(to)},
    {start: closeStart, end: closeStart + closing.length, text: hintBlockCloseTag}
  ]
  return [...renamed, tags]
}

/**
 * The names of a colour, in the case of the word they replace: GitHub's
 * five alerts first, then the docs tools' other admonition names, the
 * colour token itself for a word that was one.
 */
function namesOf(colour: string, replaced: string): string[] {
  if (!admonitionColor(replaced)) return [colour]
  const names = [
    ...Object.keys(alertColors).filter((name) => alertColors[name] === colour),
    ...Object.keys(admonitionColors).filter((name) => admonitionColors[name] === colour && !(name in alertColors))
  ]
  const cased = (name: string): string =>
    replaced === replaced.toUpperCase()
      ? name
      : replaced === replaced.toLowerCase()
        ? name.toLowerCase()
        : name[0] + name.slice(1).toLowerCase()
  return names.map(cased)
}
