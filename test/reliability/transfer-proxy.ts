/**
 * A reverse proxy in front of the local server that spoils answers as a
 * corporate proxy or a captive portal does, with a 200: it answers its own
 * HTML page in the server's place (the request never reaches the server),
 * replaces the server's answer with that page (the request was applied), or
 * cuts the server's answer short and ends it cleanly (Content-Length
 * rewritten to what is sent). It stands for the server's origin: file URLs
 * in the server's answers are rewritten to its own origin, as a platform
 * behind a proxy names its public address.
 */
import http from 'node:http'
import type {AddressInfo} from 'node:net'

/** What happens to one request. */
export type Spoil = 'pass' | 'page' | 'page-after' | 'cut'

/** A request as the proxy sees it. */
export interface SeenRequest {
  method: string
  /** Path and query. */
  url: string
}

/** A running proxy. */
export interface TransferProxy {
  origin: string
  /** Requests per fate so far. */
  counts: Record<Spoil, number>
  close(): Promise<void>
}

/** The page a gateway in maintenance answers. */
export const gatewayPage = '<html><body>Gateway maintenance: please try again later.</body></html>\n'

/** Starts a proxy to `target` (`http://host:port`) that treats each request as `decide` says. */
export async function startTransferProxy(
  target: string,
  decide: (request: SeenRequest) => Spoil
): Promise<TransferProxy> {
  const upstream = new URL(target)
  const agent = new http.Agent({keepAlive: true})
  const counts: Record<Spoil, number> = {pass: 0, page: 0, 'page-after': 0, cut: 0}
  let origin = ''
  const page = (res: http.ServerResponse) =>
    res.writeHead(200, {'content-type': 'text/html; charset=utf-8'}).end(gatewayPage)
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const fate = decide({method: req.method ?? 'GET', url: req.url ?? '/'})
      counts[fate]++
      if (fate === 'page') return void page(res)
      // The client names files by the proxy's origin; the server knows its own.
      const given = Buffer.concat(chunks)
      const json = String(req.headers['content-type'] ?? '').includes('json')
      const sent = json ? Buffer.from(given.toString('utf8').split(origin).join(target)) : given
      const headers = {...req.headers, host: upstream.host, 'content-length': String(sent.length)}
      const forwarded = http.request(
        {host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent},
        (answer) => {
          const parts: Buffer[] = []
          answer.on('data', (chunk: Buffer) => parts.push(chunk))
          answer.on('end', () => {
            if (fate === 'page-after') return void page(res)
            let body = Buffer.concat(parts)
            const type = String(answer.headers['content-type'] ?? '')
            if (type.includes('json')) body = Buffer.from(body.toString('utf8').split(target).join(origin))
            if (fate === 'cut') body = body.subarray(0, Math.floor(body.length / 2))
            const out = {...answer.headers, 'content-length': String(body.length)}
            delete out['transfer-encoding']
            res.writeHead(answer.statusCode ?? 502, out).end(body)
          })
        }
      )
      forwarded.on('error', () => req.socket.destroy())
      forwarded.end(sent)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        agent.destroy()
        server.close(() => resolve())
      })
  }
}
