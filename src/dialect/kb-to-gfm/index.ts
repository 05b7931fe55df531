/**
 * `kbToGfm`: the dialect to GitHub-flavoured Markdown that reads well on
 * GitHub. Hint blocks whose colour is an alert's become alerts, article links
 * become ordinary links; the other dialect constructs stay in their dialect
 * HTML form, which GitHub renders (`<u>`, `<mark>`, `<details>`, the
 * attachment links) and which reads back to the same tree.
 */
import type {Root} from 'mdast'
import {gfmToMarkdown} from 'mdast-util-gfm'
import {defaultHandlers, toMarkdown, type Handle, type Options} from 'mdast-util-to-markdown'
import {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {assertNesting} from '../../../plugins/depth.js'
import {hintBlockToMarkdown, kbToMarkdown} from '../../../plugins/index.js'
import type {HintBlock} from '../../../plugins/types.js'
import {alertColors} from '../gfm-to-kb/alerts.js'
import {parseKb} from '../parse.js'
import {details} from './summary.js'
import {authoringTree} from './authoring-tree.js'
import {mathToGfm} from '../gfm-to-kb/math.js'

/** Options of `kbToGfm`. */
export interface KbToGfmOptions {
  /** The URL of an article (default `https://pyrus.com/t#kb/article/{id}`). */
  articleUrl?: (id: string) => string
  /** The URL of a topic (default `https://pyrus.com/t#kb/topic/{id}`). */
  topicUrl?: (id: string) => string
}

/** The default URL of an article in the web application. */
export const defaultArticleUrl = (id: string): string => `https://pyrus.com/t#kb/article/${id}`
/** The default URL of a topic in the web application. */
export const defaultTopicUrl = (id: string): string => `https://pyrus.com/t#kb/topic/${id}`

const alertOfColor = new Map<string, string>(Object.entries(alertColors).map(([kind, color]) => [color, kind]))
const dialectHint = hintBlockToMarkdown().handlers!.hintBlock as Handle

/**
 * A top-level hint block in an alert's colour as `> [!KIND]`; any other stays
 * dialect HTML (GitHub renders alerts only at the top level, not nested).
 */
const hintBlock: Handle = (node: HintBlock, parent, state, info) => {
  const kind = alertOfColor.get(node.color)
  if (!kind || parent?.type !== 'root') return dialectHint(node, parent, state, info)
  const exit = state.enter('blockquote')
  const tracker = state.createTracker(info)
  tracker.move('> ')
  tracker.shift(2)
  const value = state.indentLines(
    state.containerFlow(node, tracker.current()),
    (line, _, blank) => '>' + (blank ? '' : ' ') + line
  )
  exit()
  return `> [!${kind}]\n` + value
}

// Code as CommonMark writes it: a fence inside code gets a longer outer fence, which GitHub reads, instead of the
// zero-width space the platform needs (plugins/code-fence.ts); a reader copying the code gets it as written.
const extension: Options = {
  extensions: [
    gfmToMarkdown(),
    kbToMarkdown(),
    mathToGfm(),
    {handlers: {hintBlock, details, code: defaultHandlers.code}}
  ]
}

/**
 * Converts a dialect tree to GitHub-flavoured Markdown (article links become
 * links; `tree` is not changed). Throws a `NestingError` for a tree nested
 * deeper than `maxNesting` (see `stringifyKb`).
 */
export function kbTreeToGfm(tree: Root, options: KbToGfmOptions = {}): {markdown: string; messages: VFileMessage[]} {
  return {markdown: gfmMarkdown(tree, options), messages: []}
}

/** The Markdown `kbTreeToGfm` writes for `tree`, `last` applied after its own options (its handlers win). */
export function gfmMarkdown(tree: Root, options: KbToGfmOptions = {}, last?: Options): string {
  assertNesting(tree)
  const urls = {articleUrl: options.articleUrl ?? defaultArticleUrl, topicUrl: options.topicUrl ?? defaultTopicUrl}
  const value = toMarkdown(authoringTree(tree, urls), last ? {extensions: [extension, last]} : extension)
  return value.replace(/\n+$/, '') + (value.trim() === '' ? '' : '\n')
}

/** The handler `kbTreeToGfm` writes nodes of `type` with (as `configure` merges them: the last extension wins). */
export function gfmHandler(type: string): Handle {
  const find = (options: Options): Handle | undefined => {
    let found: Handle | undefined
    for (const inner of options.extensions ?? []) found = find(inner) ?? found
    return (options.handlers?.[type as keyof typeof options.handlers] as Handle | undefined) ?? found
  }
  return find(extension) ?? (defaultHandlers[type as keyof typeof defaultHandlers] as Handle)
}

/** Converts dialect Markdown to GitHub-flavoured Markdown; parse problems are the messages. */
export function kbToGfm(markdown: string, options: KbToGfmOptions = {}): {markdown: string; messages: VFileMessage[]} {
  const file = new VFile({value: markdown})
  const tree = parseKb(file)
  for (const message of file.messages) message.fatal = false
  return {markdown: kbTreeToGfm(tree, options).markdown, messages: file.messages}
}
