/**
 * Code written as a component: Docusaurus `<CodeBlock language title>`
 * holding the code (a template literal in MDX), Starlight `<Code code lang
 * title>`. Either becomes a fenced code block of its language.
 */
import type {Handle} from 'hast-util-to-mdast'
import type {Code, Nodes} from 'mdast'
import {titleParagraph} from '../html/blocks.js'
import {toString} from 'mdast-util-to-string'
import {attribute} from '../html/attributes.js'
import {unwrapped} from './shared.js'

/** A code component as a code block (its content when it holds no code). */
export const codeHandler: Handle = (state, element) => {
  const text = attribute(element, 'code') ?? toString(state.all(element) as Nodes[])
  if (text.trim() === '') return unwrapped(state, element)
  const lang = attribute(element, 'language') ?? attribute(element, 'lang')
  const title = attribute(element, 'title')
  const code: Code = {type: 'code', lang: lang ?? null, meta: null, value: withoutEdgeLines(text)}
  state.patch(element, code)
  return title === undefined ? code : [titleParagraph(title), code]
}

/** `text` without the line breaks that open and end it (the component's own layout). */
function withoutEdgeLines(text: string): string {
  let start = 0
  let end = text.length
  while (start < end && (text[start] === '\n' || text[start] === '\r')) start++
  while (end > start && /\s/.test(text[end - 1]!)) end--
  return text.slice(start, end)
}
