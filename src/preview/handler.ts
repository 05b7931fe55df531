/**
 * The preview's HTTP answers: pages, the fragment an open page refetches
 * after a change, the folder's files, the event stream and the page script.
 * Only GET and HEAD, only under the preview's own host names.
 */
import type {IncomingMessage, ServerResponse} from 'node:http'
import {clientScript} from './client.js'
import {mermaidScript} from './mermaid.js'
import {decodePath} from './escape.js'
import type {EventHub} from './events.js'
import {sendFile} from './files.js'
import {isPermissionError, type PreviewModel} from './model.js'
import {renderArticlePage, renderFragment, type ArticlePageInput} from './page.js'
import {missingPage, pageOf, type BodyRenderer} from './pages.js'
import {parsePage, prefixes} from './routes.js'

/** What the answers read: the current model, and why the folder could not be read, if it could not. */
export interface PreviewState {
  model: PreviewModel
  failure: Error | undefined
  /** Counts the rescans; a fragment carries it, so a page knows it is up to date. */
  version: number
  /**
   * While the whole folder is still read in the background (after the start): how far it got. `model` is
   * then the listing, and each page is built from a model of its own (`focused`).
   */
  progress?: {done: number; total: number}
}

/** What a handler needs beside the request. */
export interface HandlerContext {
  state(): PreviewState
  hub: EventHub
  /** Renders a document's body (a cache of renderings that survives rescans). */
  render: BodyRenderer
  /** The port listened on (for the host check). */
  port(): number
  /** A fresh listing with the bodies of `files` read: a page's model while the folder is still read (`FocusedModels`). */
  focused(files: readonly string[]): Promise<PreviewModel>
}

const host = '127.0.0.1'

// The page's own script and styles only; images, media and embeds may come from anywhere (platform files, video hosts, diagrams.net).
const pagePolicy =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src * data: blob:; media-src *; frame-src *; " +
  "connect-src 'self'; font-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/** The preview's request handler. */
export function previewHandler(
  context: HandlerContext
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  return async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    const headOnly = request.method === 'HEAD'
    if (request.method !== 'GET' && !headOnly) return sendText(response, 405, 'Method not allowed')
    // A page of another site that resolves its own name to 127.0.0.1 (DNS rebinding) gets nothing.
    if (!allowedHost(request.headers.host, context.port())) return sendText(response, 403, 'Forbidden host')
    const pathname = url.pathname
    if (pathname === prefixes.events) return context.hub.attach(response)
    if (pathname === prefixes.client)
      return send(response, 200, 'text/javascript; charset=utf-8', clientScript, headOnly)
    const diagramScript = mermaidScript(pathname)
    if (diagramScript !== undefined)
      return send(response, 200, 'text/javascript; charset=utf-8', diagramScript, headOnly)
    if (pathname === prefixes.fragment) {
      const {page, status, version} = await pageFor(context, url.searchParams.get('path') ?? '/')
      return send(response, status, 'application/json', JSON.stringify({...renderFragment(page), version}), headOnly)
    }
    if (pathname.startsWith(prefixes.file)) {
      const relative = decodePath(pathname.slice(prefixes.file.length))
      if (relative !== undefined && (await sendFile(context.state().model.dir, relative, response, headOnly))) return
      return sendText(response, 404, `No such file in the folder: ${relative ?? pathname}`)
    }
    const {page, status} = await pageFor(context, pathname)
    response.setHeader('Content-Security-Policy', pagePolicy)
    return send(response, status, 'text/html; charset=utf-8', renderArticlePage(page), headOnly)
  }
}

/**
 * The page at `pathname` (or the missing page), with the folder's read failure on top when there is one; while
 * the folder is still read, from the page's own model, saying how far the reading got.
 */
async function pageFor(
  context: HandlerContext,
  pathname: string
): Promise<{page: ArticlePageInput; status: number; version: number}> {
  const state = context.state()
  const target = parsePage(pathname)
  const {model, failure} = target && state.progress ? await focusedView(context, state, target) : state
  const page = target && pageOf(model, target, context.render)
  const shown = page ?? missingPage(model, pathname)
  if (failure)
    shown.warnings = [
      {severity: 'error', message: `The folder could not be read: ${failure.message}`},
      ...(shown.warnings ?? [])
    ]
  // Read after the page was built: the reading may have ended meanwhile.
  const {progress, version} = context.state()
  if (progress) shown.progress = progress
  return {page: shown, status: page ? 200 : 404, version}
}

/** The model of the page `target` while the folder is still read: the listing with that page's body read. */
async function focusedView(
  context: HandlerContext,
  state: PreviewState,
  target: {kind: 'article' | 'topic'; path: string}
): Promise<{model: PreviewModel; failure: Error | undefined}> {
  // An article's key is its file; a topic's body is in its index file, as the listing found it.
  const file = state.model.byPath[target.path]?.file
  const files = file && file !== target.path ? [target.path, file] : [target.path]
  try {
    return {model: await context.focused(files), failure: undefined}
  } catch (error) {
    if (!isPermissionError(error)) throw error
    return {model: state.model, failure: error as Error}
  }
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

/** Answers `text` as plain text. */
export function sendText(response: ServerResponse, status: number, text: string): void {
  send(response, status, 'text/plain; charset=utf-8', text + '\n', false)
}
