/**
 * Opening the knowledge base a command talks to: the platform's API when an
 * API URL is configured, else the embedded local knowledge base (the local
 * server on a loopback port, persisted to `<dir>/.kbsync/local-kb.json`):
 * started in-process by the first kbsync process that opens it, and used
 * through that server by every other one (`embedded/`), so no two processes
 * ever write the file.
 */
import {existsSync} from 'node:fs'
import path from 'node:path'
import {DEFAULT_API_URL, DEFAULT_FILES_URL, KbClient} from '../api/index.js'
import {checkWritesInside, embeddedTarget, ensureDirInside, remoteTarget, type StateTarget} from '../local/index.js'
import type {ClientEvent} from '../api/index.js'
import type {KbsyncConfig} from './config.js'
import {ConfigError} from './config.js'
import {acquireEmbedded, leasedClient, recordPath, type Lease} from './embedded/index.js'
import {embeddedFiles} from './embedded/files.js'
import {onPreferredPort} from './embedded/port.js'

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
  /** The knowledge base, as the sync state names it (the embedded one by its data file, not its port). */
  stateTarget: StateTarget
  /** Closes the client (and stops the embedded server, saving its data). */
  close(): Promise<void>
}

/** Options of `connect`. */
export interface ConnectOptions {
  cwd?: string
  /** Client events (retries, waits) for `--verbose`. */
  onEvent?: (event: ClientEvent) => void
  /** Use the embedded knowledge base of this folder whatever the config says (`pull NEWDIR --from DIR`). */
  embeddedDir?: string
  /** The run's stop: the client's requests in flight are cut off, and none is sent after it. */
  signal?: AbortSignal
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
 * folder are checked here (their folder and the server record by
 * `leaseEmbedded`, its only caller), so a link there that leaves the
 * folder is refused by name before anything is written through it.
 */
async function startEmbedded(dir: string) {
  const [{startServer}, {filesDir}] = await Promise.all([import('../server/index.js'), import('../server/persist.js')])
  if (existsSync(dir)) checkWritesInside(dir, embeddedFiles(dir, embeddedDataFile, filesDir))
  const dataPath = path.join(dir, embeddedDataFile)
  return onPreferredPort(dataPath, (port) => startServer({dataPath, port, token: embeddedToken}))
}

/**
 * Opens the embedded knowledge base of the folder `dir`: serves it when no
 * other kbsync process does, else uses that process's server (see
 * `embedded/share.ts`); the record beside the data file is checked like the
 * data file before anything is written through it.
 */
function leaseEmbedded(dir: string): Promise<Lease> {
  if (existsSync(dir)) {
    ensureDirInside(dir, path.dirname(embeddedDataFile))
    checkWritesInside(dir, [recordPath(embeddedDataFile)])
  }
  return acquireEmbedded(path.join(dir, embeddedDataFile), () => startEmbedded(dir))
}

/**
 * Connects to the knowledge base of `config`: with an API URL, a `KbClient`
 * with the configured credentials (a `ConfigError` when there are none);
 * without one, the embedded local knowledge base.
 */
export async function connect(config: KbsyncConfig, options: ConnectOptions = {}): Promise<Connection> {
  const onEvent = {
    ...(options.onEvent ? {onEvent: options.onEvent} : {}),
    ...(options.signal ? {signal: options.signal} : {})
  }
  if (config.apiUrl && options.embeddedDir === undefined) {
    if (!config.token && !(config.login && config.securityKey)) {
      throw new ConfigError(
        `no credentials for ${describeHost(config.apiUrl)}: set KBSYNC_TOKEN (or tokenFile), or KBSYNC_LOGIN and KBSYNC_SECURITY_KEY`,
        'KBSYNC_TOKEN'
      )
    }
    // Both credentials when both are set: the token is used first, and the login renews it when it expires.
    const client = new KbClient({
      apiUrl: config.apiUrl,
      ...(config.filesUrl ? {filesUrl: config.filesUrl} : {}),
      ...(config.accountsUrl ? {accountsUrl: config.accountsUrl} : {}),
      // The login answer's addresses are accepted only on the origins the user trusts (the loader's rule).
      trustedOrigins: config.credentialOrigins,
      ...(config.token ? {token: config.token} : {}),
      ...(config.login && config.securityKey ? {login: config.login, securityKey: config.securityKey} : {}),
      ...(config.personId !== undefined ? {personId: config.personId} : {}),
      ...(config.foreignDownloads ? {foreignDownloads: config.foreignDownloads} : {}),
      concurrency: config.concurrency,
      maxRateLimitWaitMs: config.maxRateLimitWait * 1000,
      ...onEvent
    })
    const files = config.filesUrl ?? (describeHost(config.apiUrl) === DEFAULT_API_URL ? DEFAULT_FILES_URL : undefined)
    return {
      client,
      description: describeHost(config.apiUrl),
      embedded: false,
      stateTarget: remoteTarget(config.apiUrl, files),
      close: () => client.close()
    }
  }
  return connectEmbedded(options.embeddedDir ?? config.dir, config, options)
}

/** Connects to the embedded knowledge base of the folder `dir` (this process's server, or the one of the process that serves it). */
async function connectEmbedded(dir: string, config: KbsyncConfig, options: ConnectOptions): Promise<Connection> {
  const dataPath = path.join(dir, embeddedDataFile)
  if (options.embeddedDir !== undefined && !existsSync(dataPath)) {
    throw new ConfigError(
      `${dir} has no embedded knowledge base (${embeddedDataFile} not found): push that folder first, or name the folder that has one`,
      '--from'
    )
  }
  const onEvent = {
    ...(options.onEvent ? {onEvent: options.onEvent} : {}),
    ...(options.signal ? {signal: options.signal} : {})
  }
  const make = (lease: Lease) =>
    new KbClient({
      apiUrl: lease.apiUrl,
      filesUrl: lease.filesUrl,
      token: lease.token,
      concurrency: config.concurrency,
      maxRateLimitWaitMs: config.maxRateLimitWait * 1000,
      ...onEvent
    })
  const first = await leaseEmbedded(dir)
  const leased = leasedClient(first, () => leaseEmbedded(dir), make)
  const shown = path.relative(options.cwd ?? process.cwd(), dataPath) || dataPath
  const where = shown.startsWith('..') ? dataPath : shown
  const servedBy =
    first.role === 'client' ? ` (served by kbsync process ${first.owner.pid}, \`kbsync ${first.owner.command}\`)` : ''
  return {
    client: leased.client,
    description: `embedded local knowledge base at ${where}${servedBy}`,
    embedded: true,
    stateTarget: embeddedTarget(path.relative(config.dir, dataPath) || embeddedDataFile, [
      first.apiUrl,
      first.filesUrl
    ]),
    close: () => leased.close()
  }
}
