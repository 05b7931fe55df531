/**
 * The real local server for an end-to-end suite: started before its tests,
 * with the environment that points the CLI at it and a client of it; both
 * closed after. One place for what each suite would otherwise set up again.
 */
import {afterAll, beforeAll} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {startServer} from '../../src/server/index.js'

type Server = Awaited<ReturnType<typeof startServer>>

/** The server of a suite, its environment for the CLI and a client: read them inside tests (they exist once `beforeAll` ran). */
export interface LocalServer {
  readonly server: Server
  readonly env: NodeJS.ProcessEnv
  readonly client: KbClient
}

/** Registers the suite's hooks that start and close the server; returns a view of it. */
export function useLocalServer(): LocalServer {
  let started: {server: Server; env: NodeJS.ProcessEnv; client: KbClient} | undefined
  beforeAll(async () => {
    const server = await startServer({port: 0})
    const env = {KBSYNC_API_URL: server.apiUrl, KBSYNC_FILES_URL: server.filesUrl, KBSYNC_TOKEN: server.token}
    started = {server, env, client: KbClient.fromEnv(env)}
  })
  afterAll(async () => {
    await started?.client.close()
    await started?.server.close()
  })
  const get = () => {
    if (!started) throw new Error('the local server is started in beforeAll: use it inside a test')
    return started
  }
  return {
    get server() {
      return get().server
    },
    get env() {
      return get().env
    },
    get client() {
      return get().client
    }
  }
}
