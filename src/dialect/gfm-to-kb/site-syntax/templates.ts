/**
 * Liquid (Jekyll) and kramdown syntax in a Markdown body: `{% … %}`,
 * `{{ … }}`, attribute lists `{: .class}` / `{:.class}`, extensions
 * `{::options … /}`. A reader of the site never sees them, but kbsync does
 * not run a template engine, so:
 * - a kramdown attribute list or extension alone on a line of a paragraph,
 *   or right after a link or emphasis, is left out (the site shows nothing
 *   there either); one that gives a paragraph a callout class (`{: .note}`,
 *   `{: .warning}`, as Jekyll themes style them) makes it a hint block;
 * - `{% raw %}` / `{% endraw %}` are left out, in code too (Liquid reads
 *   them before Markdown is parsed; they only keep `{{ }}` from it);
 * - the rest stays as text, with ONE warning per file (`kb-template-syntax`,
 *   at the first place, with the count).
 * Text inside code and inline code is otherwise never changed or counted.
 */
import type {Code, Paragraph, Root} from 'mdast'
import type {VFile} from 'vfile'
import type {HintBlock} from '../../../../plugins/types.js'
import {admonitionColor} from '../alerts.js'
import {walk} from '../walk.js'
import {capAfterPass} from './depth-guard.js'
import {matchesInText, placeIn, type Place} from './text-matches.js'

const attributeList = /^[ \t]*\{:[^\n]*\}[ \t\r]*$/
const spanAttributeList = /^\{:[^}\n]*\}/
const rawTag = /\{%-?[ \t]*(?:end)?raw[ \t]*-?%\}/g
const rawLine = /^[ \t]*\{%-?[ \t]*(?:end)?raw[ \t]*-?%\}[ \t\r]*$/
// `{{#` is mdBook's (an include written as text), not a template.
const templateSyntax = /\{%|\{\{(?!#)|\{:/g

/** Handles the Liquid and kramdown syntax of `tree` (see the module comment), warning on `file`. */
export function handleTemplateSyntax(tree: Root, file: VFile): void {
  let dropped = 0
  let firstDropped: Place | undefined
  let wrapped = false
  walk(tree, (node, index, parent) => {
    if (node.type === 'code') {
      dropRawTags(node)
      return
    }
    if (node.type !== 'paragraph') return
    const result = dropAttributeLists(node)
    dropped += result.dropped
    firstDropped ??= result.place
    if (node.children.length === 0) {
      parent.children.splice(index, 1)
      return index
    }
    if (result.color) {
      const hint: HintBlock = {type: 'hintBlock', color: result.color, children: [node], position: node.position}
      parent.children[index] = hint
      wrapped = true
    }
  })
  if (wrapped) capAfterPass(tree, file)
  const found = matchesInText(tree, templateSyntax)
  if (found.count === 0 && dropped === 0) return
  const parts = [
    found.count > 0
      ? `${found.count} place${found.count === 1 ? '' : 's'} of Liquid or kramdown syntax (\`{% … %}\`, \`{{ … }}\`) left as text, the first here`
      : '',
    dropped > 0 ? `${dropped} kramdown attribute list${dropped === 1 ? '' : 's'} (\`{: … }\`) left out` : ''
  ].filter(Boolean)
  const message = file.message(
    `Template syntax is not run by kbsync: ${parts.join('; ')}. Render the template first, or write the text it stands for.`,
    {
      place: earlier(found.place, firstDropped),
      ruleId: 'kb-template-syntax',
      source: 'kbsync'
    }
  )
  message.fatal = false
}

/** Leaves the `{% raw %}` and `{% endraw %}` tags out of a code block (a line holding only one goes whole). */
function dropRawTags(code: Code): void {
  if (!code.value.includes('raw')) return
  const lines = code.value.split('\n').filter((line) => !rawLine.test(line))
  code.value = lines.join('\n').replace(rawTag, '')
}

/**
 * Leaves the kramdown attribute lists of a paragraph out: lines holding
 * only one, and ones right after a link, image, emphasis or code. Answers
 * how many went and the colour of a callout class among them.
 */
function dropAttributeLists(paragraph: Paragraph): {
  dropped: number
  color?: ReturnType<typeof admonitionColor>
  place?: Place
} {
  let dropped = 0
  let color: ReturnType<typeof admonitionColor>
  let place: Place | undefined
  const children = paragraph.children
  children.forEach((child, index) => {
    if (child.type !== 'text') return
    child.value = child.value.replace(rawTag, '')
    if (!child.value.includes('{:')) return
    if (index > 0 && children[index - 1]!.type !== 'text' && children[index - 1]!.type !== 'break') {
      const span = spanAttributeList.exec(child.value)
      if (span) {
        place ??= placeIn(child, 0)
        child.value = child.value.slice(span[0].length)
        dropped++
      }
    }
    const lines = child.value.split('\n')
    let offset = 0
    const kept = lines.filter((line, at) => {
      const start = offset
      offset += line.length + 1
      const wholeLine = (at > 0 || index === 0) && (at < lines.length - 1 || index === children.length - 1)
      if (!wholeLine || !attributeList.test(line)) return true
      dropped++
      place ??= placeIn(child, start)
      color ??= calloutColor(line)
      return false
    })
    child.value = kept.join('\n')
  })
  paragraph.children = children.filter((child) => child.type !== 'text' || child.value !== '')
  trimLineEnds(paragraph)
  return {dropped, ...(color ? {color} : {}), ...(place ? {place} : {})}
}

/** The colour of the first callout class of an attribute list (`.note .warning` is a warning: the more specific one). */
function calloutColor(list: string): ReturnType<typeof admonitionColor> {
  const classes = [...list.matchAll(/\.([\w-]+)/g)].map((match) => match[1]!)
  const specific = classes
    .filter((name) => name !== 'note')
    .map(admonitionColor)
    .find(Boolean)
  return specific ?? (classes.includes('note') ? admonitionColor('note') : undefined)
}

/** Removes the line breaks left at the start and end of a paragraph whose first or last line went. */
function trimLineEnds(paragraph: Paragraph): void {
  const first = paragraph.children[0]
  if (first?.type === 'text') first.value = first.value.replace(/^\n+/, '')
  const last = paragraph.children[paragraph.children.length - 1]
  if (last?.type === 'text') last.value = last.value.replace(/\n+$/, '')
  paragraph.children = paragraph.children.filter((child) => child.type !== 'text' || child.value !== '')
}

/** The earlier of two places. */
function earlier(a: Place | undefined, b: Place | undefined): Place | undefined {
  if (!a || !b) return a ?? b
  return a.line < b.line || (a.line === b.line && a.column <= b.column) ? a : b
}
