/**
 * HTML outside the dialect, converted to the dialect: every parent holding
 * `html` nodes gets them converted with the Markdown between them (one
 * fragment per parent, parsed once): in a block container the run from its
 * first to its last `html` child (cut where all its elements are closed
 * when it holds too many tags for one parse: `runs.ts`), in a text container
 * all its children. Comments and lone `<br>` need no parse. Messages of the dialect's parser
 * about tags the conversion placed (a `</div>` closing a foreign `<div>`)
 * are withdrawn.
 */
import type {Html, Nodes, Parents, RootContent} from 'mdast'
import type {VFile} from 'vfile'
import {walk} from '../walk.js'
import {holdsFlow} from './context.js'
import {convertFragment, maxTags} from './convert.js'
import {htmlRuns} from './runs.js'
import {buildFragment} from './fragment.js'
import {hoistClosingTags} from './hoist.js'
import {flatten, toFlowContent, trimBreaks} from './normalize.js'
import {trimBlanksEnd} from '../../../trust/linear-text.js'

/** Parents whose children are blocks. */
const flowParents = new Set(['root', 'blockquote', 'listItem', 'hintBlock', 'details', 'footnoteDefinition'])

const commentsOnly = /^\s*(?:<!--[\s\S]*?-->\s*)+$/
const lineBreak = /^<br\s*\/?>$/i

/** Parse messages about a tag that the conversion has since placed. */
const withdrawn = new Set([
  'kb-stray-closing-tag',
  'kb-unknown-node',
  'kb-misplaced-summary',
  'kb-invalid-content',
  'kb-invalid-color'
])

/**
 * Converts the `html` nodes of `tree` to the dialect, in place; messages go
 * to `file`. `source`, the Markdown `tree` was parsed from, tells indented
 * code (read as HTML between HTML blocks) from fenced.
 */
export function convertHtml(tree: Parents, file: VFile, source?: string): void {
  const converted: Html[] = []
  // Only the parse's messages are withdrawn: the conversion's own, on the same lines, stay.
  const parsed = file.messages.length
  const visit = (node: Parents, index: number, parent: Parents | undefined): number | undefined => {
    if (!node.children.some((child) => child.type === 'html')) return undefined
    return flowParents.has(node.type)
      ? convertFlow(node, file, converted, source)
      : convertPhrasing(node, index, parent, file, converted)
  }
  visit(tree, 0, undefined)
  walk(tree, (node, index, parent) => ('children' in node ? visit(node, index, parent) : undefined))
  withdrawMessages(file, converted, parsed)
}

/** Phrasing parents whose end is a block's end, where trailing space is never read. */
const blockEnds = new Set(['paragraph', 'heading', 'tableCell'])

/** Removes the spaces that end `parent`'s text, over text nodes the removal empties. */
function trimTrailingSpace(parent: Parents): void {
  for (let index = parent.children.length - 1; index >= 0; index--) {
    const child = parent.children[index]!
    if (child.type !== 'text') return
    child.value = trimBlanksEnd(child.value)
    if (child.value !== '') return
  }
}

/** Drops comments (an info each) and turns a lone `<br>` into a break; true when `node` is gone or replaced. */
function settleSimple(parent: Parents, index: number, file: VFile, phrasing: boolean): boolean {
  const node = parent.children[index] as Html
  if (commentsOnly.test(node.value)) {
    file.info('HTML comment left out of the body (readers never saw it).', {
      place: node.position,
      ruleId: 'kb-html-comment',
      source: 'kbsync'
    })
    parent.children.splice(index, 1)
    // `a <!-- x --> b` reads `a b`, not `a  b`.
    const [before, after] = [parent.children[index - 1], parent.children[index]]
    if (phrasing && before?.type === 'text' && after?.type === 'text' && /\s$/.test(before.value))
      after.value = after.value.replace(/^\s+/, '')
    // `a <!-- x -->` at a block's end reads `a`: the space left would be read back as nothing, so the output would change.
    if (phrasing && after === undefined && blockEnds.has(parent.type)) trimTrailingSpace(parent)
    return true
  }
  if (phrasing && lineBreak.test(node.value.trim())) {
    parent.children[index] = {type: 'break', position: node.position}
    // Space after a line break is invisible; kept, it would be written as `&#x20;`.
    const next = parent.children[index + 1]
    if (next?.type === 'text') next.value = next.value.replace(/^[ \t]+/, '')
    return true
  }
  return false
}

/** The indices of `parent`'s `html` children that still need a parse, after the simple ones were settled. */
function htmlToParse(parent: Parents, file: VFile, phrasing: boolean): number[] {
  const indices: number[] = []
  for (let index = 0; index < parent.children.length; index++) {
    if (parent.children[index]!.type !== 'html') continue
    if (settleSimple(parent, index, file, phrasing)) {
      if (parent.children[index]?.type !== 'break') index--
      continue
    }
    indices.push(index)
  }
  return indices
}

function convertFlow(parent: Parents, file: VFile, converted: Html[], source: string | undefined): undefined {
  hoistClosingTags(parent)
  const indices = htmlToParse(parent, file, false)
  if (indices.length === 0) return undefined
  const first = indices[0]!
  const run = parent.children.slice(first, indices[indices.length - 1]! + 1) as RootContent[]
  const runs = htmlRuns(
    run.map((node) => (node.type === 'html' ? node.value : undefined)),
    maxTags
  )
  // From the last run back, so that the indices of the runs before stay true.
  for (const [from, to] of runs.reverse()) {
    const nodes = run.slice(from, to + 1)
    const start = nodes.findIndex((node) => node.type === 'html')
    const end = nodes.findLastIndex((node) => node.type === 'html')
    if (start === -1) continue
    const fragment = buildFragment(nodes.slice(start, end + 1), true, source)
    converted.push(...fragment.html)
    const blocks = toFlowContent(convertFragment(fragment, file).nodes) as typeof parent.children
    parent.children.splice(first + from + start, end + 1 - start, ...blocks)
  }
  return undefined
}

/** Converts a text container's children; a paragraph that now holds blocks is split in its parent. Returns where the walk goes on. */
function convertPhrasing(
  node: Parents,
  index: number,
  parent: Parents | undefined,
  file: VFile,
  converted: Html[]
): number | undefined {
  const parse = htmlToParse(node, file, true).length > 0
  if (breakEdged.has(node.type)) dropEdgeBreaks(node)
  if (!parse) return dropIfBlank(node, index, parent)
  const fragment = buildFragment(node.children as RootContent[], false)
  converted.push(...fragment.html)
  const {nodes} = convertFragment(fragment, file)
  if (!holdsFlow(nodes as Nodes[])) {
    node.children = nodes as typeof node.children
    if (breakEdged.has(node.type)) dropEdgeBreaks(node)
    return dropIfBlank(node, index, parent)
  }
  if (node.type === 'paragraph' && parent && flowParents.has(parent.type)) {
    const blocks = toFlowContent(nodes)
    parent.children.splice(index, 1, ...(blocks as typeof parent.children))
    // The walk goes on with the first of the new blocks (their kept nodes may hold `html` of their own).
    return index
  }
  node.children = flatten(nodes as Nodes[], node.type === 'tableCell' ? 'break' : 'space') as typeof node.children
  return undefined
}

/**
 * Removes a paragraph left with nothing a reader sees (it held only a
 * comment, a lone `<br>`): written empty, it would leave blank lines that
 * read back otherwise (at the top of a body, as none). Returns where the
 * walk goes on when it went.
 */
function dropIfBlank(node: Parents, index: number, parent: Parents | undefined): number | undefined {
  if (node.type !== 'paragraph' || !parent) return undefined
  if (!node.children.every((child) => child.type === 'text' && child.value.trim() === '')) return undefined
  parent.children.splice(index, 1)
  return index
}

/** Text containers in which a line break before or after all text means nothing (and cannot be written). */
const breakEdged = new Set(['paragraph', 'heading', 'tableCell', 'detailsSummary'])

/** Drops the line breaks at the edges of `node`'s children (see `trimBreaks`). */
function dropEdgeBreaks(node: Parents): void {
  if (node.children.some((child) => child.type === 'break'))
    node.children = trimBreaks(node.children as Nodes[]) as typeof node.children
}

/** Removes parse messages (the first `parsed` of the file) about the converted `html` nodes (see `withdrawn`). */
function withdrawMessages(file: VFile, converted: Html[], parsed: number): void {
  if (converted.length === 0) return
  const places = new Set<string>()
  for (const html of converted) {
    const start = html.position?.start
    const end = html.position?.end
    if (!start || !end) continue
    for (let line = start.line; line <= end.line; line++) places.add(`${line}`)
  }
  for (let index = parsed - 1; index >= 0; index--) {
    const message = file.messages[index]!
    if (withdrawn.has(message.ruleId ?? '') && message.line !== undefined && places.has(`${message.line}`))
      file.messages.splice(index, 1)
  }
}
