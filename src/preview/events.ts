/**
 * Server-sent events: the open pages listen here and hear when the folder
 * changed.
 */
import type {ServerResponse} from 'node:http'

/** The open event streams of the preview's pages. */
export class EventHub {
  #clients = new Set<ServerResponse>()
  #heartbeat: NodeJS.Timeout

  constructor(heartbeatMs = 15_000) {
    // A comment now and then keeps proxies and idle timeouts from closing the stream.
    this.#heartbeat = setInterval(() => this.#write(': ping\n\n'), heartbeatMs)
    this.#heartbeat.unref()
  }

  /** Turns `response` into an event stream and keeps it until the page goes away. */
  attach(response: ServerResponse): void {
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no'
    })
    response.write('retry: 500\n\n')
    this.#clients.add(response)
    response.on('close', () => this.#clients.delete(response))
  }

  /** Sends one event to every open page. */
  send(event: string, data: unknown): void {
    this.#write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
  }

  /** Number of pages listening. */
  get size(): number {
    return this.#clients.size
  }

  /** Ends every stream. */
  close(): void {
    clearInterval(this.#heartbeat)
    for (const client of this.#clients) client.end()
    this.#clients.clear()
  }

  #write(chunk: string): void {
    for (const client of this.#clients) client.write(chunk)
  }
}
