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
import type {PreviewModel} from './model.js'
import {renderArticlePage, renderFragment, type ArticlePageInput} from './page.js'
import {missingPage, pageOf, type BodyRenderer} from './pages.js'
import {parsePage, prefixes} from './routes.js'

/** What the answers read: the current model, and why the folder could not be read, if it could not. */
export interface PreviewState {
  model: PreviewModel
  failure: Error | undefined
  /** Counts the rescans; a fragment carries it, so a page knows it is up to date. */
  version: number
}

/** What a handler needs beside the request. */
export interface HandlerContext {
  state(): PreviewState
  hub: EventHub
  /** Renders a document's body (a cache of renderings that survives rescans). */
  render: BodyRenderer
  /** The port listened on (for the host check). */
  port(): number
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
    const state = context.state()
    if (pathname === prefixes.fragment) {
      const {page, status} = pageFor(state, url.searchParams.get('path') ?? '/', context.render)
      return send(
        response,
        status,
        'application/json',
        JSON.stringify({...renderFragment(page), version: state.version}),
        headOnly
      )
    }
    if (pathname.startsWith(prefixes.file)) {
      const relative = decodePath(pathname.slice(prefixes.file.length))
      if (relative !== undefined && (await sendFile(state.model.dir, relative, response, headOnly))) return
      return sendText(response, 404, `No such file in the folder: ${relative ?? pathname}`)
    }
    const {page, status} = pageFor(state, pathname, context.render)
    response.setHeader('Content-Security-Policy', pagePolicy)
    return send(response, status, 'text/html; charset=utf-8', renderArticlePage(page), headOnly)
  }
}

/** The page at `pathname` (or the missing page), with the folder's read failure on top when there is one. */
function pageFor(
  state: PreviewState,
  pathname: string,
  render: BodyRenderer
): {page: ArticlePageInput; status: number} {
  const target = parsePage(pathname)
  const page = target && pageOf(state.model, target, render)
  const shown = page ?? missingPage(state.model, pathname)
  if (state.failure)
    shown.warnings = [
      {severity: 'error', message: `The folder could not be read: ${state.failure.message}`},
      ...(shown.warnings ?? [])
    ]
  return {page: shown, status: page ? 200 : 404}
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
