/**
 * A reverse proxy in front of the local server's API that refuses, as the
 * platform refuses a body it will not hold, every write whose request body
 * holds a marker: a fault injected for one article (its text carries the
 * marker) while every other request passes.
 */
import http from 'node:http'
import type {AddressInfo} from 'node:net'

/** A running proxy: its API URL, the number of requests it refused, and its close. */
export interface FaultProxy {
  apiUrl: string
  refused: number
  close(): Promise<void>
}

/** Starts a proxy to `apiUrl` that answers 400 to each request whose body contains `marker`. */
export async function startFaultProxy(apiUrl: string, marker: string): Promise<FaultProxy> {
  const upstream = new URL(apiUrl)
  const agent = new http.Agent({keepAlive: true})
  const state = {refused: 0}
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const given = Buffer.concat(chunks)
      if (given.includes(marker)) {
        state.refused++
        const answer = JSON.stringify({error_code: 'knowledge_base_invalid_request', error: 'The body is refused.'})
        res.writeHead(400, {'content-type': 'application/json; charset=utf-8'}).end(answer)
        return
      }
      const headers = {...req.headers, host: upstream.host, 'content-length': String(given.length)}
      const forwarded = http.request(
        {host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent},
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        }
      )
      forwarded.on('error', () => req.socket.destroy())
      forwarded.end(given)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {
    apiUrl: `http://127.0.0.1:${port}${upstream.pathname}`,
    get refused() {
      return state.refused
    },
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
