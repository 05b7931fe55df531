/**
 * The port the embedded knowledge base of a folder listens on. The
 * platform's files keep one host, and the sync state records the URL of each
 * file push uploaded; a pull compares the bodies' file URLs with those. On a
 * new port each run, a web edit of an article with images came back with
 * every image rewritten as that run's URL, and each later pull downloaded
 * them again. So each data file has a port of its own, chosen by its path
 * below the range the system hands out for outgoing connections; when that
 * port is taken, any free one serves (the old behaviour, for that run).
 */
import {createHash} from 'node:crypto'
import path from 'node:path'

const lowest = 20_000
const count = 12_000

/** The port the embedded server of the data file `dataPath` asks for first. */
export function preferredPort(dataPath: string): number {
  const digest = createHash('sha256').update(path.resolve(dataPath)).digest()
  return lowest + (digest.readUInt32BE(0) % count)
}

/** `start` on the preferred port of `dataPath`, else on any free port when that one cannot be had. */
export async function onPreferredPort<S>(dataPath: string, start: (port: number) => Promise<S>): Promise<S> {
  try {
    return await start(preferredPort(dataPath))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error
    return start(0)
  }
}
