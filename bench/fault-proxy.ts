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
      const forwarded = http.request({host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent}, (answer) => {
        if (fate === 'drop-after') {
          answer.resume()
          answer.on('end', () => req.socket.destroy())
          return
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
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
 * Drops in bursts (a two-state Gilbert model, seeded): after a passed
 * request a burst starts with a probability chosen so that `share` of all
 * requests are dropped, and each request of a burst ends it with
 * probability `1 / meanBurst`. Half the drops lose the request, half its
 * answer.
 */
export function burstDrops(share: number, meanBurst: number, seed: number): (request: ProxiedRequest) => Fate {
  const random = seededRandom(seed)
  const leave = 1 / meanBurst
  const enter = (share * leave) / (1 - share)
  let inBurst = false
  return () => {
    inBurst = inBurst ? random() >= leave : random() < enter
    if (!inBurst) return 'pass'
    return random() < 0.5 ? 'drop-before' : 'drop-after'
  }
}
