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
import {FocusedModels} from './focused.js'
import {emptyModel, isPermissionError, modelSource, type ModelSource, type PreviewScanOptions} from './model.js'
import {BackgroundPace} from './pace.js'
import {progressText} from './page.js'
import {serialRefresh} from './refresh.js'
import {RenderedBodies} from './rendered.js'
import {watchFolder, type FolderWatcher} from './watch.js'

/** What `onRefresh` hears after each rescan of the folder. */
export interface RefreshInfo {
  version: number
  /** The paths the rescan read again (none: the whole folder). */
  paths: string[]
  ms: number
  error?: Error
  /** Set when the rescan was the first reading of every document, in the background after the start: how many it read. */
  documents?: number
}

/** Options of `startPreview`. */
export interface PreviewOptions {
  /** The folder to show. */
  dir: string
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number
  /** Called after each rescan of the folder (for logging). */
  onRefresh?: (info: RefreshInfo) => void
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
  /**
   * Resolves once every document was read and checked: the preview answers as soon as it listens, and reads
   * the folder in the background; pages shown before say how far it got.
   */
  checked: Promise<void>
  /** Rescans the folder now and tells open pages (the watcher does this on every change). */
  refresh(paths?: string[]): Promise<void>
  /** Stops watching and reading, ends the event streams and closes the server. */
  close(): Promise<void>
}

const host = '127.0.0.1'

/** How long the background reading waits after the start, so the first page is built alone. */
const firstPageGraceMs = 300

/**
 * Starts the preview of `options.dir`; resolves once it listens and watches, after reading only the folder's
 * listing (titles and places): each page is built when asked for, while every body is read in the background.
 */
export async function startPreview(options: PreviewOptions): Promise<PreviewServer> {
  const firstSkip = firstSkipNotices()
  const warnNew = (diagnostics: Diagnostic[]) => {
    const fresh = diagnostics.filter(firstSkip)
    if (fresh.length > 0) options.onWarnings?.(fresh)
  }
  const hub = new EventHub()
  const pace = new BackgroundPace((progress) => {
    if (state.progress) hub.send('progress', {...progress, text: progressText(progress)})
  })
  const onBodyRead = (done: number, total: number) => {
    if (state.progress) state.progress = {done, total}
    return pace.step(done, total)
  }
  const source = modelSource(options.dir, options.scan, {onBodyRead})
  const state = await firstState(source, options.dir)
  const focused = new FocusedModels(source)
  const rendered = new RenderedBodies()
  const refresher = serialRefresh((paths) =>
    rescan(paths, {state, source, rendered, hub, options, warnNew, focused, pace})
  )
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
    port: () => port,
    focused: (files) => pace.foreground(() => focused.model(files))
  })
  port = await listen(server, options.port ?? 0)
  const onChange = (paths: string[]) => {
    // While the folder is still read, a page is built afresh from the disk: open pages fetch theirs at once.
    if (state.progress) {
      focused.clear()
      hub.send('change', {version: ++state.version, paths})
    }
    void refresher.refresh(paths)
  }
  const watcher = await watchOrClose(server, state.model.dir, onChange, options)
  // Said once listening: a start that fails (a busy port) and is tried again says nothing twice.
  warnNew(state.model.skipped)
  if (state.failure) options.onRefresh?.({version: state.version, paths: [], ms: 0, error: state.failure})
  const checked = state.progress ? refresher.refresh([]) : Promise.resolve()

  return {
    url: `http://${host}:${port}/`,
    port,
    checked,
    refresh: refresher.refresh,
    async close() {
      pace.stop()
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

/** What a rescan reads and updates. */
interface RescanContext {
  state: PreviewState
  source: ModelSource
  rendered: RenderedBodies
  hub: EventHub
  options: PreviewOptions
  warnNew: (diagnostics: Diagnostic[]) => void
  focused: FocusedModels
  pace: BackgroundPace
}

/**
 * Reads the folder again (`paths` changed) into the state and tells open pages; the first one, after the start,
 * reads every body (at the pace of the requests) and ends the pages built one by one.
 */
async function rescan(paths: string[], context: RescanContext): Promise<void> {
  const {state, hub, options} = context
  const first = state.progress !== undefined
  // The reading waits a moment for the first page (a browser opened with the preview asks for it at once).
  if (first) await context.pace.start(firstPageGraceMs)
  const started = performance.now()
  try {
    state.model = await context.source.load(paths)
    state.failure = undefined
    context.rendered.prune(state.model)
    context.warnNew(state.model.skipped)
  } catch (error) {
    state.failure = error as Error
  }
  if (context.pace.stopped) return
  state.version++
  const info: RefreshInfo = {version: state.version, paths, ms: Math.round(performance.now() - started)}
  if (state.failure) info.error = state.failure
  if (first) {
    state.progress = undefined
    context.focused.clear()
    info.documents = state.model.articleCount
    hub.send('progress', {...context.pace.progress, complete: true, version: state.version})
  } else hub.send('change', {version: state.version, paths})
  options.onRefresh?.(info)
}

/**
 * The state at the start: the folder's listing, every body still to read. A file it may not read fails the
 * whole scan: the preview starts all the same and every page says why, until a save fixes it.
 */
async function firstState(source: ModelSource, dir: string): Promise<PreviewState> {
  try {
    const model = await source.listing()
    const total = Object.values(model.byPath).filter((node) => node.file !== undefined).length
    return {model, failure: undefined, version: 1, progress: {done: 0, total}}
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
