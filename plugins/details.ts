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

const detailsSummary: KbHandle = (node: DetailsSummary, _, state, info) =>
  wrapPhrasing(node, state, info, '<summary>', '</summary>')

/** to-markdown extension for `details` and `detailsSummary`. */
export function detailsToMarkdown(): Options {
  return {handlers: {details, detailsSummary}}
}

/** remark plugin: the dialect's expanding blocks. */
export function remarkKbDetails(this: any) {
  return registerKb(this, [detailsToMarkdown()])
}
