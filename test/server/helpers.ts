/** Helpers of the server suites: servers started for one test and closed after it. */
import {afterEach} from 'vitest'
import {startServer, type RunningServer, type ServerOptions} from '../../src/server/index.js'

/** A started server and `call`, which sends JSON with its token to a path under its API URL. */
export interface Started {
  server: RunningServer
  call(method: string, path: string, body?: unknown): Promise<{status: number; json: any}>
}

/** Returns `start(options)`, which starts a server (with `defaults` under `options`) that is closed after the test. */
export function serversPerTest(defaults: ServerOptions = {}): (options?: ServerOptions) => Promise<Started> {
  const servers: RunningServer[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()))
  })
  return async (options = {}) => {
    const server = await startServer({...defaults, ...options})
    servers.push(server)
    const call: Started['call'] = async (method, path, body) => {
      const headers: Record<string, string> = {authorization: `Bearer ${server.token}`, 'content-type': 'application/json'}
      const response = await fetch(server.apiUrl + path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)})
      return {status: response.status, json: await response.json()}
    }
    return {server, call}
  }
}
