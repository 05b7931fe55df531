/**
 * Pages with no text of their own. The platform refuses an empty article,
 * and what counts is the body after conversion (what it would store): a
 * file of front matter only, and one whose body converts to nothing (HTML
 * comments, `<script setup>` and components, MDX imports) alike. Such a
 * page is:
 *
 * - left out when its front matter says the site makes it (a redirect
 *   stub, a page Hugo does not render or a headless one, a page of front
 *   matter only drawn by a named `layout` or `template`, as Starlight's
 *   `404.md` or Hugo's `search.md`): one counted info, and links to it
 *   keep their text;
 * - published otherwise, with its front matter `description` when it has
 *   one and a line saying that the page has no text of its own and what
 *   the site shows there (one warning naming the file).
 *
 * A topic's body is optional: one that converts to nothing is left out.
 */
import path from 'node:path'
import type {Root} from 'mdast'
import {toMarkdown} from 'mdast-util-to-markdown'
import type {PhrasingContent} from 'mdast'
import {readYaml} from '../trust/index.js'
import type {Diagnostic} from './diagnostic.js'
import {sha256} from './hash.js'
import {toKbText} from './markdown.js'
import type {LocalNode, LocalTopic} from './types.js'

/** A document whose body is blank: empty in its file (`written` false), or converted to nothing. */
export interface BlankPage {
  node: LocalNode
  file: string
  /** Whether the file holds a body (that converts to nothing). */
  written: boolean
  /** The raw YAML of its front matter. */
  frontMatter: string
  /** The line to name in messages. */
  line: number
}

/**
 * Whether a converted body is blank, as the platform judges a body: no
 * visible character. Stops at the first text that has one (most bodies:
 * the first), and serialises only a tree without any.
 */
export function isBlankTree(tree: Root): boolean {
  const stack: Array<{value?: unknown; children?: unknown[]}> = [tree]
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (typeof node.value === 'string' && node.value.trim() !== '') return false
    if (Array.isArray(node.children)) for (const child of node.children) stack.push(child as (typeof stack)[number])
  }
  return tree.children.length === 0 || toKbText(tree).trim() === ''
}

/** What the scan holds that leaving out or filling in a page changes. */
export interface BlankContext {
  root: LocalTopic
  byPath: Record<string, LocalNode>
  diagnostics: Diagnostic[]
}

/** Leaves out or fills in each page of `pages` (see the module's rule), and turns links to those left out into text. */
export function settleBlankPages(pages: readonly BlankPage[], context: BlankContext): void {
  const left = new Map<string, string>()
  for (const page of pages) {
    const {node} = page
    if (node.kind === 'topic') {
      dropBody(node)
      continue
    }
    const data = frontMatterData(page.frontMatter)
    const madeBy = madeBySite(data, page.written)
    if (madeBy !== undefined) {
      leaveOut(node, context)
      left.set(node.path, madeBy)
      context.diagnostics.push({
        severity: 'info',
        file: page.file,
        line: page.line,
        message: `A page the site makes (front matter ${madeBy}) with no text of its own: not published`,
        rule: 'site-page-skipped'
      })
      continue
    }
    fillIn(node, page, lineBody(data, page.written))
    context.diagnostics.push({
      severity: 'warning',
      file: page.file,
      line: page.line,
      message: `The page has no text of its own${page.written ? ' once converted (what its file holds is for the site only)' : ''}, and the platform refuses an empty article: it is published with a line saying so`,
      hint: 'Write the text the page should show, or a front matter `description`',
      rule: 'empty-body'
    })
  }
  if (left.size > 0) unlinkLeftOut(left, context)
}

type Data = Record<string, unknown>

function frontMatterData(yaml: string): Data {
  const read = readYaml(yaml)
  return read.ok && read.data !== null && typeof read.data === 'object' && !Array.isArray(read.data)
    ? (read.data as Data)
    : {}
}

// Front matter keys of redirect stubs (MkDocs, Jekyll's jekyll-redirect-from, VuePress, Docusaurus plugins).
const redirectKeys = ['redirect', 'redirect_to', 'redirect_url', 'redirectTo', 'redirect_from', 'redirects']

/** Why the site makes the page (a phrase naming the front matter), or undefined when it is the author's page. */
function madeBySite(data: Data, written: boolean): string | undefined {
  const redirect = redirectKeys.find((key) => data[key] !== undefined && data[key] !== null)
  if (redirect) return `\`${redirect}\``
  for (const key of ['_build', 'build']) {
    const render = (data[key] as Data | undefined)?.render
    if (render === 'never' || render === false) return `\`${key}: {render: ${String(render)}}\``
  }
  if (data.headless === true) return '`headless: true`'
  // Front matter alone, drawn by a layout the site names: the site's own page (a search page, a 404 splash).
  const drawn = drawnBy(data)
  return !written && drawn ? `\`${drawn.key}: ${drawn.name}\`` : undefined
}

/** The layout or template the front matter names, when its name is a plain word. */
function drawnBy(data: Data): {key: string; name: string} | undefined {
  for (const key of ['layout', 'template']) {
    const name = data[key]
    if (typeof name === 'string' && /^[\w.-]{1,40}$/.test(name)) return {key, name}
  }
  return undefined
}

/**
 * The body of a page with no text of its own, as Markdown: its description
 * when the front matter has one, then what the site shows there.
 */
export function lineBody(data: Data, written: boolean): string {
  const drawn = drawnBy(data)
  const how: PhrasingContent[] = drawn
    ? [
        {type: 'text', value: 'on the site, its '},
        {type: 'inlineCode', value: drawn.name},
        {
          type: 'text',
          value: ` ${drawn.key} draws it${written ? ' from components or scripts only the site shows' : ''}.`
        }
      ]
    : [
        {
          type: 'text',
          value: written
            ? 'on the site, it is made of components or scripts only the site shows.'
            : 'on the site, it is a title in the navigation.'
        }
      ]
  const note: PhrasingContent[] = [{type: 'text', value: 'This page has no text of its own: '}, ...how]
  const description = typeof data.description === 'string' ? data.description.trim() : ''
  const children: Root['children'] = []
  if (description !== '') children.push({type: 'paragraph', children: [{type: 'text', value: description}]})
  children.push({type: 'paragraph', children: [{type: 'emphasis', children: note}]})
  return toMarkdown({type: 'root', children})
}

/** Gives `node` the body `text` in place of the blank one. */
function fillIn(node: LocalNode, page: BlankPage, text: string): void {
  node.body = text
  node.bodyKey = sha256(page.file + '\0' + text)
  node.resolutions = []
  node.refs = {links: [], assets: []}
  node.externalUrls = []
  delete node.tree
}

function dropBody(node: LocalNode): void {
  delete node.body
  delete node.bodyKey
  delete node.tree
  delete node.resolutions
  node.refs = {links: [], assets: []}
}

/** Takes `node` out of the tree. */
function leaveOut(node: LocalNode, context: BlankContext): void {
  delete context.byPath[node.path]
  const parent = context.byPath[node.parent ?? path.posix.dirname(node.path)] ?? context.root
  if (parent.kind === 'topic') parent.children = parent.children.filter((child) => child !== node)
}

/** Links to pages left out keep their text, with one warning per linking document. */
function unlinkLeftOut(left: ReadonlyMap<string, string>, context: BlankContext): void {
  for (const node of Object.values(context.byPath)) {
    const resolutions = node.resolutions
    if (!resolutions || !node.refs.links.some((link) => left.has(link.target))) continue
    const targets = new Set<string>()
    resolutions.forEach((resolved, index) => {
      if (resolved && 'link' in resolved && left.has(resolved.link.target)) {
        targets.add(resolved.link.target)
        resolutions[index] = {plain: true}
      }
    })
    node.refs.links = node.refs.links.filter((link) => !left.has(link.target))
    // A kept tree was marked with the old resolutions: parsed again from the text when rendered.
    delete node.tree
    const list = [...targets]
    context.diagnostics.push({
      severity: 'warning',
      file: node.file ?? node.path,
      message: `${list.length === 1 ? 'A link' : `${list.length} links`} to ${list.map((target) => `\`${target}\``).join(', ')}, which the site makes and kbsync does not publish: the text is published without the link`,
      hint: 'Link to the page the reader should go to instead',
      rule: 'link-to-unpublished'
    })
  }
}
