/** The options push and pull take from a library caller, checked before anything is read or written. */
import type {PushOptions} from './types.js'

/** Throws a `TypeError` naming the first option a library caller got wrong, for push and pull (the CLI's config is checked before). */
export function checkOptions(
  options: Pick<PushOptions, 'dir' | 'concurrency' | 'rootTopicId'> & {client: unknown}
): void {
  if (!options || typeof options.dir !== 'string' || options.dir === '')
    throw new TypeError('kbsync: options.dir must be the path of the folder to sync')
  const client = options.client as {getTree?: unknown} | undefined
  if (!client || typeof client.getTree !== 'function')
    throw new TypeError('kbsync: options.client must be a KbClient (or an object with its methods)')
  const {concurrency, rootTopicId} = options
  if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1))
    throw new TypeError(`kbsync: options.concurrency must be a whole number of at least 1, not ${String(concurrency)}`)
  if (rootTopicId !== undefined && rootTopicId !== null && (typeof rootTopicId !== 'string' || rootTopicId === '')) {
    throw new TypeError('kbsync: options.rootTopicId must be a topic id (a string) or null for the knowledge-base root')
  }
}
