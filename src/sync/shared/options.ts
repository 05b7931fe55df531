/** The options push and pull take from a library caller, checked before anything is read or written. */
import {originOf, remoteTarget, unnamedTarget, type StateTarget} from '../../local/index.js'
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

/**
 * The knowledge base a run's sync state is that of: the caller's `target`
 * (the CLI names it, and the embedded knowledge base, whose port changes at
 * each start, by its data file), else the client's API URL (a `KbClient`),
 * else one unnamed target.
 */
export function stateTargetOf(options: {target?: StateTarget; client: unknown}): StateTarget {
  if (options.target) return options.target
  const apiUrl = (options.client as {apiUrl?: unknown} | undefined)?.apiUrl
  return typeof apiUrl === 'string' && originOf(apiUrl) ? remoteTarget(apiUrl) : unnamedTarget
}
