/** Video `<video src=URL></video>`. */
import type {Options} from 'mdast-util-to-markdown'
import type {Video} from './types.js'
import {attribute, registerKb, type KbHandle} from './util.js'

const video: KbHandle = (node: Video) => `<video${attribute('src', node.url)}></video>`

/** to-markdown extension for `video`. */
export function videoToMarkdown(): Options {
  return {handlers: {video}}
}

/** remark plugin: the dialect's videos. */
export function remarkKbVideo(this: any) {
  return registerKb(this, [videoToMarkdown()])
}
