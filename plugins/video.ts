/** Video `<video src=URL></video>`. */
import type {Options} from 'mdast-util-to-markdown'
import {reject, type FlowEntry, type KbConstruct} from './construct.js'
import {constructPlugin} from './register.js'
import {attribute, type KbHandle} from './tag-writer.js'
import type {Video} from './types.js'

/** `<video src=…>`: a `src` and no content (`<video src=x />` too). */
const entry: FlowEntry = {
  tag: 'video',
  close({tag, output, from}) {
    const url = tag.attributes.src
    if (url === undefined || output.length !== from)
      return reject('A video needs `src` and no content', 'kb-invalid-content')
    return {type: 'video', url}
  }
}

const video: KbHandle = (node: Video) => `<video${attribute('src', node.url)}></video>`

/** to-markdown extension for `video`. */
export function videoToMarkdown(): Options {
  return {handlers: {video}}
}

/** The video construct: how its tags are paired and how it is written. */
export const videoConstruct: KbConstruct = {name: 'video', flow: [entry], toMarkdown: videoToMarkdown()}

/** remark plugin: the dialect's videos. */
export const remarkKbVideo = constructPlugin(videoConstruct)
