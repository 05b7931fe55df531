/**
 * HTML the conversion does not parse (more tags than its budget, nested too
 * deep) kept readable without a parse, in one linear pass: a `<pre>` is a
 * code block with its lines as written, the rest text whose block elements
 * (`<p>`, `<div>`, `<li>`, `<br>`...) part paragraphs; tags go without
 * leaving spaces (a diagnostic that wraps each character in a `<span>`
 * reads as its word), `<script>`/`<style>` go with their content, and
 * character references are decoded (`&quot;` reads `"`).
 */
import {fromHtml} from 'hast-util-from-html'
import type {Code, Paragraph, RootContent, Text} from 'mdast'
import {tagEnd} from './runs.js'

/** Elements whose edges part paragraphs. */
const blocks = new Set(
  'address article aside blockquote br dd details div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6 header hr li main nav ol p section summary table tbody thead tfoot tr ul'.split(
    ' '
  )
)
/** Elements whose edges stand between words (cells, images). */
const separators = new Set(['td', 'th', 'img', 'input', 'button', 'option'])
/** Elements whose content is no text a reader sees. */
const hidden = new Set(['script', 'style', 'template', 'noscript'])

/** `text` with its character references decoded (a parse of text alone: no element, no recursion). */
function decoded(text: string): string {
  if (!text.includes('&')) return text
  const root = fromHtml(text.replaceAll('<', '&lt;'), {fragment: true})
  return root.children.map((node) => (node.type === 'text' ? node.value : '')).join('')
}

/** What one pass collects: the blocks so far and the text of the one being read. */
interface Reading {
  out: Array<Paragraph | Code>
  text: string
  /** Inside a `<pre>`: its text is code, spaces kept. */
  pre: boolean
}

function flush(reading: Reading): void {
  if (reading.pre) {
    const value = decoded(reading.text).replace(/^\n/, '').replace(/\s+$/, '')
    if (value !== '') reading.out.push({type: 'code', lang: null, meta: null, value})
  } else {
    const value = decoded(reading.text).replace(/\s+/g, ' ').trim()
    if (value !== '') reading.out.push({type: 'paragraph', children: [{type: 'text', value}]})
  }
  reading.text = ''
}

/** Reads the tag at `at` into `reading`; answers where reading goes on. */
function readTag(html: string, lower: string, at: number, reading: Reading): number {
  if (html.startsWith('<!--', at)) {
    const end = html.indexOf('-->', at + 4)
    return end === -1 ? html.length : end + 3
  }
  const start = html[at + 1] === '/' ? at + 2 : at + 1
  const name = /^[a-z][a-z0-9:._-]*/.exec(lower.slice(start, start + 80))?.[0]
  if (!name) {
    reading.text += '<'
    return at + 1
  }
  const end = tagEnd(html, start + name.length)
  if (end === -1) return html.length
  const closing = start === at + 2
  if (!closing && hidden.has(name)) {
    const close = lower.indexOf(`</${name}`, end + 1)
    const closeEnd = close === -1 ? -1 : tagEnd(html, close + name.length + 2)
    return closeEnd === -1 ? html.length : closeEnd + 1
  }
  if (name === 'pre' || (blocks.has(name) && !reading.pre)) {
    flush(reading)
    if (name === 'pre') reading.pre = !closing
  } else if (separators.has(name) && !reading.pre) reading.text += ' '
  return end + 1
}

/**
 * `html` as readable nodes: code blocks and paragraphs where `flow`, else
 * one text (its paragraphs and code joined by spaces).
 */
export function readableHtml(html: string, flow: boolean): Array<RootContent> {
  const reading: Reading = {out: [], text: '', pre: false}
  const lower = html.toLowerCase()
  let last = 0
  for (let at = html.indexOf('<'); at !== -1; at = html.indexOf('<', last)) {
    reading.text += html.slice(last, at)
    last = readTag(html, lower, at, reading)
    if (last >= html.length) break
  }
  if (last < html.length) reading.text += html.slice(last)
  flush(reading)
  if (flow) return reading.out
  const words = reading.out.map((block) => (block.type === 'code' ? block.value : (block.children[0] as Text).value))
  const value = words.join(' ').replace(/\s+/g, ' ')
  return value === '' ? [] : [{type: 'text', value}]
}
