/**
 * The real local server for one end-to-end test file: started before its
 * tests, closed after them, with the environment that points the CLI at it
 * and a client to read what the CLI wrote.
 */
import {afterAll, beforeAll} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {startServer} from '../../src/server/index.js'

/** What `useLocalServer` gives the tests (set once the file's `beforeAll` ran). */
export interface LocalServer {
  server: Awaited<ReturnType<typeof startServer>>
  env: NodeJS.ProcessEnv
  client: KbClient
}

/** Registers the start and the close of a local server around the tests of the calling file. */
export function useLocalServer(): LocalServer {
  const local = {} as LocalServer
  beforeAll(async () => {
    local.server = await startServer({port: 0})
    local.env = {
      KBSYNC_API_URL: local.server.apiUrl,
      KBSYNC_FILES_URL: local.server.filesUrl,
      KBSYNC_TOKEN: local.server.token
    }
    local.client = KbClient.fromEnv(local.env)
  })
  afterAll(async () => {
    await local.client?.close()
    await local.server?.close()
  })
  return local
}
