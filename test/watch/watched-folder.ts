/** A watch session of the real engine on a fresh folder, pushing to a fresh local server: the suites' common setup. */
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {KbClient} from '../../src/api/index.js'
import {startServer} from '../../src/server/index.js'
import {push, type PushOptions} from '../../src/sync/index.js'
import {startWatchSession, type BatchReport, type WatchSession} from '../../src/cli/watch/index.js'
import {capturedReporter} from './helpers.js'

/** What a suite drives and inspects; `close` stops the session and removes the server and the folder. */
export interface WatchedFolder {
  server: Awaited<ReturnType<typeof startServer>>
  client: KbClient
  /** The remote topic the folder is pushed under. */
  root: string
  dir: string
  session: WatchSession
  /** Every batch the session reported, in order. */
  reports: BatchReport[]
  captured: ReturnType<typeof capturedReporter>
  close: () => Promise<void>
}

/** Options of a watched folder: its files (relative path -> text), the debounce, and options of each push. */
export interface WatchedFolderOptions {
  name: string
  files: Record<string, string>
  debounceMs: number
  push?: Partial<PushOptions>
}

/** Writes `options.files` to a new folder and starts watching it, pushing under a new topic "Watched". */
export async function watchedFolder(options: WatchedFolderOptions): Promise<WatchedFolder> {
  const server = await startServer({port: 0})
  const client = new KbClient({apiUrl: server.apiUrl, filesUrl: server.filesUrl, token: server.token})
  const root = (await client.createItem({type: 'topic', title: 'Watched', parent_topic_id: null})).id
  const dir = await mkdtemp(path.join(tmpdir(), `kbsync-${options.name}-`))
  for (const [name, text] of Object.entries(options.files)) {
    await mkdir(path.dirname(path.join(dir, name)), {recursive: true})
    await writeFile(path.join(dir, name), text)
  }
  const captured = capturedReporter()
  const reports: BatchReport[] = []
  const session = await startWatchSession({
    dir,
    debounceMs: options.debounceMs,
    reporter: captured.reporter,
    push: (onEvent) => push({dir, client, rootTopicId: root, onEvent, ...options.push}),
    onBatch: (report) => reports.push(report)
  })
  const close = async () => {
    await session.close()
    await client.close()
    await server.close()
    await rm(dir, {recursive: true, force: true})
  }
  return {server, client, root, dir, session, reports, captured, close}
}
