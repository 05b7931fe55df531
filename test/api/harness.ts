/**
 * The frame of a test file that runs clients against tiny servers: a
 * temporary folder for the file, and servers and clients closed after each test.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, afterEach, beforeAll} from 'vitest'
import type {KbClient} from '../../src/api/index.js'
import {tinyServer, type Handler, type Tiny} from './tiny-server.js'

/** What `useTinyServers` gives a test file. */
export interface TinyHarness {
  /** The file's temporary folder (set once `beforeAll` has run). */
  readonly dir: string
  /** Starts a tiny server, closed after the test. */
  serve(handler: Handler): Promise<Tiny>
  /** Closes `client` after the test; returns it. */
  track(client: KbClient): KbClient
}

/** Registers the hooks of a file of client-against-tiny-server tests. */
export function useTinyServers(prefix: string): TinyHarness {
  let dir = ''
  let servers: Tiny[] = []
  const clients: KbClient[] = []
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), prefix))
  })
  afterAll(async () => {
    await rm(dir, {recursive: true, force: true})
  })
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()))
    await Promise.all(servers.map((s) => s.close()))
    servers = []
  })
  return {
    get dir() {
      return dir
    },
    async serve(handler) {
      const server = await tinyServer(handler)
      servers.push(server)
      return server
    },
    track(client) {
      clients.push(client)
      return client
    }
  }
}
