/**
 * An HTTP proxy in front of the local server that decides, per request,
 * what the network does to it: pass it on, drop the connection before the
 * server sees the request, drop it after the server applied it (the answer
 * lost: the case that makes a careless client create duplicates), or answer
 * in the server's place. The client benchmark drops connections in bursts
 * through it; end-to-end tests refuse chosen writes with it.
 */
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import {seededRandom} from '../src/server/random.js'

/** What happens to one request. */
export type Fate = 'pass' | 'drop-before' | 'drop-after' | {status: number; json: unknown}

/** A request as the proxy decides on it. */
export interface ProxiedRequest {
  method: string
  /** Path and query. */
  url: string
  body: Buffer
}

/** A running proxy: its URL stands for the target's origin. */
export interface FaultProxy {
  /** `http://127.0.0.1:PORT`: use it in place of the server's origin (`apiUrl` is this plus `/v4`). */
  origin: string
  /** Requests per fate so far. */
  counts: Record<'pass' | 'drop-before' | 'drop-after' | 'answered', number>
  close(): Promise<void>
}

/** Starts a proxy to `target` (an origin, `http://host:port`) whose every request gets the fate `decide` gives it. */
export async function startFaultProxy(target: string, decide: (request: ProxiedRequest) => Fate): Promise<FaultProxy> {
  const upstream = new URL(target)
  const agent = new http.Agent({keepAlive: true})
  const counts = {pass: 0, 'drop-before': 0, 'drop-after': 0, answered: 0}
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const fate = decide({method: req.method ?? 'GET', url: req.url ?? '/', body})
      if (typeof fate === 'object') {
        counts.answered++
        res.writeHead(fate.status, {'content-type': 'application/json'})
        res.end(JSON.stringify(fate.json))
        return
      }
      counts[fate]++
      if (fate === 'drop-before') return void req.socket.destroy()
      // The server checks Host: the request goes on as if sent to it directly.
      const headers = {...req.headers, host: upstream.host}
      const forwarded = http.request(
        {host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent},
        (answer) => {
          if (fate === 'drop-after') {
            answer.resume()
            answer.on('end', () => req.socket.destroy())
            return
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        }
      )
      forwarded.on('error', () => req.socket.destroy())
      forwarded.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        agent.destroy()
        server.close(() => resolve())
      })
  }
}

/**
 * Drops in bursts of time, as the platform does (a seeded Poisson process):
 * bursts start at random moments and last `meanBurstMs` on average
 * (between half and one and a half times it), often enough that `share` of the time is
 * inside one, so a client keeping a steady pace loses `share` of its
 * requests; one that slows down in a burst loses fewer. Every request
 * arriving in a burst is dropped: half before the server sees it, half
 * after it was applied (the answer lost).
 */
export function burstDrops(
  share: number,
  meanBurstMs: number,
  seed: number,
  now: () => number = Date.now
): (request: ProxiedRequest) => Fate {
  const random = seededRandom(seed)
  // Bursts per millisecond outside them, so that bursts cover `share` of the time.
  const rate = share / ((1 - share) * meanBurstMs)
  let last = now()
  let burstEnd = 0
  return () => {
    const time = now()
    const elapsed = time - last
    last = time
    if (time >= burstEnd && random() < 1 - Math.exp(-rate * elapsed)) burstEnd = time + (0.5 + random()) * meanBurstMs
    if (time >= burstEnd) return 'pass'
    return random() < 0.5 ? 'drop-before' : 'drop-after'
  }
}
