/**
 * The live preview server: pages of the folder's articles and topics, the
 * folder's files, and an event stream that tells open pages when to
 * refresh. Binds the loopback interface only.
 */
import {realpath} from 'node:fs/promises'
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'
import {clientScript} from './client.js'
import type {Diagnostic} from '../local/index.js'
import {firstSkipNotices} from '../local/watch.js'
import {decodePath} from './escape.js'
import {EventHub} from './events.js'
import {sendFile} from './files.js'
import {emptyModel, loadModel, type PreviewModel, type PreviewScanOptions} from './model.js'
import {renderArticlePage, renderFragment, type ArticlePageInput} from './page.js'
import {missingPage, pageOf} from './pages.js'
import {parsePage, prefixes} from './routes.js'
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

// The page's own script and styles only; images, media and embeds may come from anywhere (platform files, video hosts, diagrams.net).
const pagePolicy =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src * data: blob:; media-src *; frame-src *; " +
  "connect-src 'self'; font-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/** Starts the preview of `options.dir`; resolves once it listens and watches. */
export async function startPreview(options: PreviewOptions): Promise<PreviewServer> {
  const firstSkip = firstSkipNotices()
  const warnNew = (diagnostics: Diagnostic[]) => {
    const fresh = diagnostics.filter(firstSkip)
    if (fresh.length > 0) options.onWarnings?.(fresh)
  }
  let model: PreviewModel
  let failure: Error | undefined
  try {
    model = await loadModel(options.dir, options.scan)
  } catch (error) {
    // A file it may not read fails the whole scan: the preview starts all the same and every page says why, until a save fixes it.
    if (!isPermissionError(error)) throw error
    failure = error as Error
    model = emptyModel(await realpath(options.dir))
  }
  let version = 1
  const hub = new EventHub()

  // Rescans run one at a time; changes during a scan cause one more.
  let scanning: Promise<void> | undefined
  let queued: string[] | undefined
  const rescan = async (paths: string[]): Promise<void> => {
    const started = performance.now()
    try {
      model = await loadModel(options.dir, options.scan)
      failure = undefined
      warnNew(model.skipped)
    } catch (error) {
      failure = error as Error
    }
    version++
    hub.send('change', {version, paths})
    options.onRefresh?.({version, paths, ms: Math.round(performance.now() - started), ...(failure ? {error: failure} : {})})
  }
  const refresh = (paths: string[] = []): Promise<void> => {
    if (scanning) {
      queued = [...(queued ?? []), ...paths]
      return scanning
    }
    scanning = (async () => {
      await rescan(paths)
      while (queued) {
        const next = queued
        queued = undefined
        await rescan(next)
      }
      scanning = undefined
    })()
    return scanning
  }

  const pageFor = (pathname: string): {page: ArticlePageInput; status: number} => {
    const target = parsePage(pathname)
    const page = target && pageOf(model, target)
    const shown = page ?? missingPage(model, pathname)
    if (failure) shown.warnings = [{severity: 'error', message: `The folder could not be read: ${failure.message}`}, ...(shown.warnings ?? [])]
    return {page: shown, status: page ? 200 : 404}
  }

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    const headOnly = request.method === 'HEAD'
    if (request.method !== 'GET' && !headOnly) return sendText(response, 405, 'Method not allowed')
    // A page of another site that resolves its own name to 127.0.0.1 (DNS rebinding) gets nothing.
    if (!allowedHost(request.headers.host, port)) return sendText(response, 403, 'Forbidden host')
    const pathname = url.pathname
    if (pathname === prefixes.events) return hub.attach(response)
    if (pathname === prefixes.client) return send(response, 200, 'text/javascript; charset=utf-8', clientScript, headOnly)
    if (pathname === prefixes.fragment) {
      const {page, status} = pageFor(url.searchParams.get('path') ?? '/')
      return send(response, status, 'application/json', JSON.stringify({...renderFragment(page), version}), headOnly)
    }
    if (pathname.startsWith(prefixes.file)) {
      const relative = decodePath(pathname.slice(prefixes.file.length))
      if (relative !== undefined && (await sendFile(model.dir, relative, response, headOnly))) return
      return sendText(response, 404, `No such file in the folder: ${relative ?? pathname}`)
    }
    const {page, status} = pageFor(pathname)
    response.setHeader('Content-Security-Policy', pagePolicy)
    return send(response, status, 'text/html; charset=utf-8', renderArticlePage(page), headOnly)
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => {
      if (!response.headersSent) sendText(response, 500, `Preview error: ${error.message}`)
      else response.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  let watcher: FolderWatcher
  try {
    watcher = await watchFolder(
      model.dir,
      (paths) => void refresh(paths),
      (message) => options.onWarnings?.([{severity: 'warning', message}]),
      options.scan?.ignore
    )
  } catch (error) {
    server.close()
    throw error
  }
  // Said once listening: a start that fails (a busy port) and is tried again says nothing twice.
  warnNew(model.skipped)
  if (failure) options.onRefresh?.({version, paths: [], ms: 0, error: failure})

  return {
    url: `http://${host}:${port}/`,
    port,
    refresh,
    async close() {
      await watcher.close()
      await scanning
      hub.close()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    }
  }
}

function isPermissionError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return code === 'EACCES' || code === 'EPERM'
}

function allowedHost(header: string | undefined, port: number): boolean {
  return header === `${host}:${port}` || header === `localhost:${port}`
}

function send(response: ServerResponse, status: number, type: string, body: string, headOnly: boolean): void {
  response.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer'
  })
  response.end(headOnly ? undefined : body)
}

function sendText(response: ServerResponse, status: number, text: string): void {
  send(response, status, 'text/plain; charset=utf-8', text + '\n', false)
}
