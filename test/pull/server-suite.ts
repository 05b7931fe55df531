/** The setting of the pull suites that run against the local server: a server, a client of it, temporary folders, all removed after the file's tests. */
import {afterAll} from 'vitest'
import type {KbClient} from '../../src/api/index.js'
import {useLocalServer, type LocalServer} from '../e2e/local-server.js'
import {temporaryFolders} from '../temp-folders.js'

/** What `serverSuite` gives the tests of a file (the server and client once `beforeAll` ran). */
export interface ServerSuite {
  server(): LocalServer['server']
  client(): KbClient
  folder(): Promise<string>
}

/** The local server of `useLocalServer`, and temporary folders (named `kbsync-<prefix>-…`) removed after the file's tests. */
export function serverSuite(prefix: string): ServerSuite {
  const local = useLocalServer()
  const temporary = temporaryFolders(prefix)
  afterAll(() => temporary.removeAll())
  return {server: () => local.server, client: () => local.client, folder: () => temporary.make()}
}
