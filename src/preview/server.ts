/**
 * The live preview server: pages of the folder's articles and topics, the
 * folder's files, and an event stream that tells open pages when to
 * refresh. Binds the loopback interface only.
 */
import {realpath} from 'node:fs/promises'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import type {Diagnostic} from '../local/index.js'
import {firstSkipNotices} from '../local/watch.js'
import {EventHub} from './events.js'
import {previewHandler, sendText, type PreviewState} from './handler.js'
import {emptyModel, modelSource, type ModelSource, type PreviewScanOptions} from './model.js'
import {serialRefresh} from './refresh.js'
import {RenderedBodies} from './rendered.js'
import {watchFolder, type FolderWatcher} from './watch.js'

/** Options of `startPreview`. */
export interface PreviewOptions {
  /** The folder to show. */
  dir: string
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number
  /** Called after each rescan of the folder (for logging). */
  onRefresh?: (info: {version: number; paths: string[]; ms: number; error?: Error}) => void
  /**
   * Called with what is worth a line in the terminal, each once: entries
   * the scan skipped (a symbolic link loop, an unreadable folder), which no
   * page shows, and problems of the watcher.
   */
  onWarnings?: (diagnostics: Diagnostic[]) => void
  /** The config's `ignore` patterns and link options, as `plan` scans with them. */
  scan?: PreviewScanOptions
}

/** A running preview. */
export interface PreviewServer {
  /** `http://127.0.0.1:PORT/`. */
  url: string
  port: number
  /** Rescans the folder now and tells open pages (the watcher does this on every change). */
  refresh(paths?: string[]): Promise<void>
  /** Stops watching, ends the event streams and closes the server. */
  close(): Promise<void>
}

const host = '127.0.0.1'

/** Starts the preview of `options.dir`; resolves once it listens and watches. */
export async function startPreview(options: PreviewOptions): Promise<PreviewServer> {
  const firstSkip = firstSkipNotices()
  const warnNew = (diagnostics: Diagnostic[]) => {
    const fresh = diagnostics.filter(firstSkip)
    if (fresh.length > 0) options.onWarnings?.(fresh)
  }
  const source = modelSource(options.dir, options.scan)
  const state = await firstState(source, options.dir)
  const hub = new EventHub()
  const rendered = new RenderedBodies()
  const rescan = async (paths: string[]): Promise<void> => {
    const started = performance.now()
    try {
      state.model = await source.load(paths)
      state.failure = undefined
      rendered.prune(state.model)
      warnNew(state.model.skipped)
    } catch (error) {
      state.failure = error as Error
    }
    state.version++
    hub.send('change', {version: state.version, paths})
    options.onRefresh?.({
      version: state.version,
      paths,
      ms: Math.round(performance.now() - started),
      ...(state.failure ? {error: state.failure} : {})
    })
  }
  const refresher = serialRefresh(rescan)
  let port = 0
  const server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => {
      if (!response.headersSent) sendText(response, 500, `Preview error: ${error.message}`)
      else response.destroy()
    })
  })
  const handle = previewHandler({
    state: () => state,
    hub,
    render: (node, model) => rendered.html(node, model),
    port: () => port
  })
  port = await listen(server, options.port ?? 0)
  const watcher = await watchOrClose(server, state.model.dir, (paths) => void refresher.refresh(paths), options)
  // Said once listening: a start that fails (a busy port) and is tried again says nothing twice.
  warnNew(state.model.skipped)
  if (state.failure) options.onRefresh?.({version: state.version, paths: [], ms: 0, error: state.failure})

  return {
    url: `http://${host}:${port}/`,
    port,
    refresh: refresher.refresh,
    async close() {
      await watcher.close()
      await refresher.running
      hub.close()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    }
  }
}

/** The first scan's state; a file it may not read fails the whole scan: the preview starts all the same and every page says why, until a save fixes it. */
async function firstState(source: ModelSource, dir: string): Promise<PreviewState> {
  try {
    return {model: await source.load(), failure: undefined, version: 1}
  } catch (error) {
    if (!isPermissionError(error)) throw error
    return {model: emptyModel(await realpath(dir)), failure: error as Error, version: 1}
  }
}

/** Listens on `port` of the loopback interface; resolves with the port taken. */
async function listen(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  return (server.address() as AddressInfo).port
}

/** Watches the folder (closing the server when that fails): each burst of changes asks for a rescan of those paths. */
async function watchOrClose(
  server: Server,
  dir: string,
  onChange: (paths: string[]) => void,
  options: PreviewOptions
): Promise<FolderWatcher> {
  try {
    return await watchFolder(
      dir,
      onChange,
      (message) => options.onWarnings?.([{severity: 'warning', message}]),
      options.scan?.ignore
    )
  } catch (error) {
    server.close()
    throw error
  }
}

function isPermissionError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return code === 'EACCES' || code === 'EPERM'
}
