/**
 * `kbsync serve` on a data file: it serves the file only as its owner. A
 * file another kbsync process serves already is refused, naming that
 * process and its address: two servers of one file would each write back
 * their own copy of it.
 */
import {UsageError} from '../errors.js'
import {acquireEmbedded, type EmbeddedServer} from './share.js'

/**
 * Starts the server of the data file `dataPath` with `start` and records it,
 * as `acquireEmbedded` does; throws a `UsageError` when another live kbsync
 * process serves the file. The result's `close` stops the server and
 * removes the record.
 */
export async function serveOwned<S extends EmbeddedServer>(dataPath: string, start: () => Promise<S>): Promise<S> {
  let started: S | undefined
  const lease = await acquireEmbedded(dataPath, async () => (started = await start()), {command: 'serve'})
  if (lease.role === 'owner' && started) return {...started, close: () => lease.release()}
  await lease.release()
  throw new UsageError(
    `${dataPath} is served already by kbsync process ${lease.owner.pid} (\`kbsync ${lease.owner.command}\`) at ${lease.apiUrl}: ` +
      'kbsync commands on its folder use that server by themselves; stop that process first to serve the file with other options here'
  )
}
