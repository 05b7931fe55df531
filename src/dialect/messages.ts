/**
 * Conversion messages: every construct a conversion changes or cannot hold
 * becomes a VFileMessage with line, column and a stable `ruleId`, so nothing
 * is lost silently.
 */
import type {Node} from 'unist'
import {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'

/** A file to collect messages on, named by `path` when given. */
export function messageFile(value: string, path?: string): VFile {
  return new VFile({value, path})
}

/** Adds a warning about `node` to `file`. */
export function warn(file: VFile, node: Node | undefined, ruleId: string, reason: string): VFileMessage {
  const message = file.message(reason, {place: node?.position, ruleId, source: 'kbsync'})
  message.fatal = false
  return message
}

/** `messages` in document order (line, then column). */
export function sortMessages(messages: VFileMessage[]): VFileMessage[] {
  return [...messages].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0))
}
