/**
 * `gfmToKb`: GitHub-flavoured Markdown (the authoring form) to the dialect.
 * Full GFM is parsed (authors may also write dialect tags directly), then
 * every construct the dialect cannot hold is converted with a warning.
 */
import type {Root} from 'mdast'
import {fromMarkdown} from 'mdast-util-from-markdown'
import {gfmFromMarkdown} from 'mdast-util-gfm'
import {gfm} from 'micromark-extension-gfm'
import type {VFileMessage} from 'vfile-message'
import {kbFromMarkdown, kbSyntax, reportKbProblems} from '../../../plugins/index.js'
import {messageFile} from '../messages.js'
import {stringifyKb} from '../stringify.js'
import {alertsToHintBlocks} from './alerts.js'
import {capHeadings, convertFootnotes, convertTaskItems, escapeForeignHtml, inlineReferences} from './unsupported.js'

export {alertColors} from './alerts.js'

/** Options of `gfmToKb`. */
export interface GfmToKbOptions {
  /** The file's path, named in messages. */
  path?: string
}

/** What `gfmToKbTree` answers. */
export interface GfmToKbTreeResult {
  tree: Root
  messages: VFileMessage[]
}

/**
 * Converts GFM to a dialect tree (the sync engine rewrites links and images
 * in it before `stringifyKb`).
 */
export function gfmToKbTree(markdown: string, options: GfmToKbOptions = {}): GfmToKbTreeResult {
  const file = messageFile(markdown, options.path)
  const tree = fromMarkdown(markdown, {
    extensions: [gfm(), kbSyntax()],
    mdastExtensions: [gfmFromMarkdown(), kbFromMarkdown()]
  })
  reportKbProblems(tree, file)
  inlineReferences(tree)
  alertsToHintBlocks(tree)
  capHeadings(tree, file)
  convertTaskItems(tree, file)
  convertFootnotes(tree, file)
  escapeForeignHtml(tree, file)
  return {tree, messages: sortMessages(file.messages)}
}

/** Converts GFM to canonical dialect Markdown. */
export function gfmToKb(markdown: string, options: GfmToKbOptions = {}): {markdown: string; messages: VFileMessage[]} {
  const {tree, messages} = gfmToKbTree(markdown, options)
  return {markdown: stringifyKb(tree), messages}
}

function sortMessages(messages: VFileMessage[]): VFileMessage[] {
  return [...messages].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0))
}
