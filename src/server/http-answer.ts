/**
 * How the local server answers a request: JSON, a page or a file, with the
 * rate-limit headers and `nosniff` on every answer, the status logged.
 */
import type {IncomingMessage, ServerResponse} from 'node:http'
import {hasBody} from './body.js'
import type {Pipeline, RequestLogEntry} from './http.js'
import type {FileAnswer} from './routes.js'

/** Sends one answer: a JSON value, an HTML page (a string) or a file; `given` headers replace the rate-limit ones. */
export type Answer = (status: number, body: unknown, given?: Record<string, string>) => void

/**
 * The platform counts requests per user. Every token of this server (the
 * configured one and those `/auth` issues) belongs to its one API user, so
 * they share one budget: logging in again does not escape the limit.
 */
export const rateKey = 'api-user'

/** The answer function of one request, recording its status in the log entry. */
export function answerer(
  pipeline: Pipeline,
  message: IncomingMessage,
  response: ServerResponse,
  entry: RequestLogEntry
): Answer {
  return (status, body, given) => {
    entry.status = status
    // Every answer of the API carries the rate-limit headers, also those that spend no budget.
    const headers: Record<string, string | number> = {
      ...(given ?? (entry.endpoint === 'browse' || status === 403 ? {} : pipeline.limiter.peek(rateKey).headers)),
      'X-Content-Type-Options': 'nosniff'
    }
    // A body left unread (refused before reading it, or too large) is not drained: the connection closes instead.
    if (hasBody(message) && !message.complete) headers.Connection = 'close'
    if (isFile(body)) {
      response.writeHead(status, {...headers, 'Content-Type': 'application/octet-stream', 'Content-Length': body.size})
      body
        .open()
        .on('error', () => response.destroy())
        .pipe(response)
      return
    }
    const text = typeof body === 'string' ? body : JSON.stringify(body)
    const type = typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8'
    response.writeHead(status, {...headers, 'Content-Type': type})
    response.end(text)
  }
}

function isFile(body: unknown): body is FileAnswer {
  return typeof body === 'object' && body !== null && (body as FileAnswer).kind === 'file'
}
