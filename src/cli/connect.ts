/**
 * Opening the knowledge base a command talks to: the platform's API when an
 * API URL is configured, else the embedded local knowledge base (the local
 * server started in-process on a loopback port, persisted to
 * `<dir>/.kbsync/local-kb.json`).
 */
import {existsSync} from 'node:fs'
import path from 'node:path'
import {KbClient} from '../api/index.js'
import {checkWritesInside, ensureDirInside} from '../local/index.js'
import type {ClientEvent} from '../api/index.js'
import type {KbsyncConfig} from './config.js'
import {ConfigError} from './config.js'

/** The token of the embedded local knowledge base (it only listens on 127.0.0.1). */
export const embeddedToken = 'kbsync-local-token'

/** Where the embedded knowledge base keeps its data, relative to the synced folder. */
export const embeddedDataFile = path.join('.kbsync', 'local-kb.json')

/** An open connection. */
export interface Connection {
  client: KbClient
  /** Where requests go, for the first line of output; never holds a secret. */
  description: string
  /** Whether this is the embedded local knowledge base. */
  embedded: boolean
  /** Closes the client (and stops the embedded server, saving its data). */
  close(): Promise<void>
}

/** Options of `connect`. */
export interface ConnectOptions {
  cwd?: string
  /** Client events (retries, waits) for `--verbose`. */
  onEvent?: (event: ClientEvent) => void
}

/** The host of an API URL, for messages (no path, no query, no credentials). */
export function describeHost(apiUrl: string): string {
  const url = new URL(apiUrl)
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`
}

/**
 * Starts the embedded server for the folder `dir`; imported lazily so remote
 * runs never load the server's code. The server writes through the paths it
 * is given, and it imports nothing of `local`: its data file and files
 * folder are checked here, so a link there that leaves the folder is refused
 * by name before anything is written through it.
 */
async function startEmbedded(dir: string) {
  const [{startServer}, {filesDir}] = await Promise.all([import('../server/index.js'), import('../server/persist.js')])
  if (existsSync(dir)) {
    ensureDirInside(dir, path.dirname(embeddedDataFile))
    checkWritesInside(dir, [embeddedDataFile, filesDir(embeddedDataFile)])
  }
  return startServer({dataPath: path.join(dir, embeddedDataFile), port: 0, token: embeddedToken})
}

/**
 * Connects to the knowledge base of `config`: with an API URL, a `KbClient`
 * with the configured credentials (a `ConfigError` when there are none);
 * without one, the embedded local knowledge base.
 */
export async function connect(config: KbsyncConfig, options: ConnectOptions = {}): Promise<Connection> {
  const onEvent = options.onEvent ? {onEvent: options.onEvent} : {}
  if (config.apiUrl) {
    if (!config.token && !(config.login && config.securityKey)) {
      throw new ConfigError(`no credentials for ${describeHost(config.apiUrl)}: set KBSYNC_TOKEN (or tokenFile), or KBSYNC_LOGIN and KBSYNC_SECURITY_KEY`, 'KBSYNC_TOKEN')
    }
    // Both credentials when both are set: the token is used first, and the login renews it when it expires.
    const client = new KbClient({
      apiUrl: config.apiUrl,
      ...(config.filesUrl ? {filesUrl: config.filesUrl} : {}),
      ...(config.accountsUrl ? {accountsUrl: config.accountsUrl} : {}),
      ...(config.token ? {token: config.token} : {}),
      ...(config.login && config.securityKey ? {login: config.login, securityKey: config.securityKey} : {}),
      ...(config.personId !== undefined ? {personId: config.personId} : {}),
      ...(config.foreignDownloads ? {foreignDownloads: config.foreignDownloads} : {}),
      concurrency: config.concurrency,
      maxRateLimitWaitMs: config.maxRateLimitWait * 1000,
      ...onEvent
    })
    return {client, description: describeHost(config.apiUrl), embedded: false, close: () => client.close()}
  }
  const dataPath = path.join(config.dir, embeddedDataFile)
  const server = await startEmbedded(config.dir)
  const client = new KbClient({apiUrl: server.apiUrl, filesUrl: server.filesUrl, token: server.token, concurrency: config.concurrency, maxRateLimitWaitMs: config.maxRateLimitWait * 1000, ...onEvent})
  const shown = path.relative(options.cwd ?? process.cwd(), dataPath) || dataPath
  return {
    client,
    description: `embedded local knowledge base at ${shown.startsWith('..') ? dataPath : shown}`,
    embedded: true,
    async close() {
      try {
        await client.close()
      } finally {
        await server.close()
      }
    }
  }
}
