/**
 * Local HTTP sites for the link checker's suites: one scripted server per
 * test answering the routes a checker meets in the wild (OK, missing,
 * redirects, HEAD refused, rate limited, slow, pages with anchors), with
 * every request recorded.
 */
import type {ServerResponse} from 'node:http'
import {tinyServer, type Seen, type Tiny} from '../api/tiny-server.js'

/** A page with an id and an `<a name>` target. */
export const pageHtml =
  '<!doctype html><title>Guide</title><h2 id="install">Install</h2><p><a name="legacy">old</a></p><h2 id="user-content-usage">Usage</h2>'

/** Answers the routes below; each call of a route is counted in `seen`. */
export async function linkSite(options: {slowMs?: number; delayMs?: number} = {}): Promise<Tiny> {
  const rateLimited = new Map<string, number>()
  return tinyServer(async (req: Seen, res: ServerResponse) => {
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs))
    const [route] = req.url.split('?')
    switch (route) {
      case '/page':
        res.writeHead(200, {'content-type': 'text/html; charset=utf-8'})
        res.end(req.method === 'HEAD' ? undefined : pageHtml)
        return
      case '/moved':
        res.writeHead(301, {location: '/ok'}).end()
        return
      case '/moved-to-missing':
        res.writeHead(302, {location: '/missing'}).end()
        return
      case '/loop':
        res.writeHead(302, {location: '/loop'}).end()
        return
      case '/no-head':
        res.writeHead(req.method === 'HEAD' ? 405 : 200).end()
        return
      case '/reset-head':
        if (req.method === 'HEAD') return 'drop'
        res.writeHead(200).end()
        return
      case '/slow':
        await new Promise((resolve) => setTimeout(resolve, options.slowMs ?? 2_000))
        if (!res.destroyed) res.writeHead(200).end()
        return
      case '/busy-once': {
        const count = (rateLimited.get(route) ?? 0) + 1
        rateLimited.set(route, count)
        res.writeHead(count === 1 ? 503 : 200).end()
        return
      }
      case '/unavailable-once': {
        const count = (rateLimited.get(route) ?? 0) + 1
        rateLimited.set(route, count)
        res.writeHead(count === 1 ? 503 : 200, count === 1 ? {'retry-after': '1'} : {}).end()
        return
      }
      case '/limited':
        res.writeHead(429, {'retry-after': '3'}).end()
        return
      case '/limited-once': {
        const count = (rateLimited.get(route) ?? 0) + 1
        rateLimited.set(route, count)
        res.writeHead(count === 1 ? 429 : 200, count === 1 ? {'retry-after': '2'} : {}).end()
        return
      }
      case '/limited-long':
        res.writeHead(429, {'retry-after': new Date(Date.now() + 3_600_000).toUTCString()}).end()
        return
      case '/missing':
        res.writeHead(404).end()
        return
      default:
        res.writeHead(route!.startsWith('/ok') ? 200 : 404).end()
    }
  })
}
