/**
 * A tiny scripted HTTP server for the client's mechanics (retries, waits,
 * redaction) where the real local server cannot be made to misbehave on cue.
 */
import http from 'node:http'
import type {AddressInfo} from 'node:net'

/** One request as the tiny server saw it. */
export interface Seen {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: Buffer
  at: number
}

/** Answers a request; `drop` destroys the socket without an answer. */
export type Handler = (req: Seen, res: http.ServerResponse, index: number) => void | 'drop' | Promise<void | 'drop'>

/** A running tiny server. */
export interface Tiny {
  url: string
  seen: Seen[]
  inFlight: () => number
  maxInFlight: () => number
  close(): Promise<void>
}

/** Starts a server on 127.0.0.1 whose every request goes to `handler`. */
export async function tinyServer(handler: Handler): Promise<Tiny> {
  const seen: Seen[] = []
  let inFlight = 0
  let maxInFlight = 0
  const server = http.createServer((req, res) => {
    inFlight++
    maxInFlight = Math.max(maxInFlight, inFlight)
    res.on('close', () => inFlight--)
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const entry: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        at: Date.now()
      }
      seen.push(entry)
      const outcome = await handler(entry, res, seen.length - 1)
      if (outcome === 'drop') req.socket.destroy()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** Sends a JSON answer. */
export function json(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {}
): void {
  res.writeHead(status, {'content-type': 'application/json', ...headers})
  res.end(JSON.stringify(body))
}

/** A plausible knowledge-base item. */
export function item(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    title: `Item ${id}`,
    type: 'article',
    body: 'x',
    parent_topic_id: null,
    created_at: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    updated_at: '2026-01-01T00:00:00Z',
    version: 1,
    ...extra
  }
}
