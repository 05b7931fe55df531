/** Expanding block `<details><summary>…</summary>…</details>`. */
import type {Options} from 'mdast-util-to-markdown'
import type {Details, DetailsSummary} from './types.js'
import {registerKb, wrapFlow, wrapPhrasing, type KbHandle} from './util.js'

const details: KbHandle = (node: Details, _, state, info) => {
  const [first, ...rest] = node.children
  if (first && first.type === 'detailsSummary') {
    const summary = detailsSummary(first, node, state, info)
    return wrapFlow({type: 'details', children: rest} as Details, state, info, '<details>\n' + summary, '</details>')
  }
  return wrapFlow(node, state, info, '<details>', '</details>')
}

/** The summary is read back as a paragraph, so it is escaped as one. */
const detailsSummary: KbHandle = (node: DetailsSummary, _, state, info) => {
  const exit = state.enter('paragraph')
  const exitPhrasing = state.enter('phrasing')
  const value = wrapPhrasing(node, state, info, '<summary>', '</summary>')
  exitPhrasing()
  exit()
  return value
}

/** to-markdown extension for `details` and `detailsSummary`. */
export function detailsToMarkdown(): Options {
  return {handlers: {details, detailsSummary}}
}

/** remark plugin: the dialect's expanding blocks. */
export function remarkKbDetails(this: any) {
  return registerKb(this, [detailsToMarkdown()])
}
