/** The setting of the pull suites that run against the local server: a server, a client of it, temporary folders, all removed after the file's tests. */
import {afterAll, beforeAll} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {startServer} from '../../src/server/index.js'
import {temporaryFolders} from '../temp-folders.js'

/** What `serverSuite` gives the tests of a file (the server and client once `beforeAll` ran). */
export interface ServerSuite {
  server(): Awaited<ReturnType<typeof startServer>>
  client(): KbClient
  folder(): Promise<string>
}

/** Starts a local server and a client before the file's tests, and stops them and removes the folders made (named `kbsync-<prefix>-…`) after. */
export function serverSuite(prefix: string): ServerSuite {
  let server: Awaited<ReturnType<typeof startServer>> | undefined
  let client: KbClient | undefined
  const temporary = temporaryFolders(prefix)
  beforeAll(async () => {
    server = await startServer({port: 0})
    client = new KbClient({apiUrl: server.apiUrl, filesUrl: server.filesUrl, token: server.token})
  })
  afterAll(async () => {
    await client?.close()
    await server?.close()
    await temporary.removeAll()
  })
  return {server: () => server!, client: () => client!, folder: () => temporary.make()}
}
