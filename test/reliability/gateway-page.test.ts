/**
 * Issue 32, faults tried as an outsider would: a proxy in front of the
 * platform answers some writes `502 Bad Gateway` with nginx's HTML page.
 * The push fails those steps saying what answered (an HTML page titled
 * "502 Bad Gateway", a proxy or gateway) and that a run again completes
 * the job, never that the platform refused the body (it never saw it) nor
 * the page's raw HTML; the next push converges with one item per title.
 * Before: `failed: 502: <html>…` and "the platform answers so to a body it
 * cannot read, and saved nothing".
 */
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import {afterAll, describe, expect, it} from 'vitest'
import {useLocalServer} from '../e2e/local-server.js'
import {cli} from '../e2e/push-helpers.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'

const local = useLocalServer()
const temp = temporaryFolders('gateway')
afterAll(() => temp.removeAll())

const nginx502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n'

/** A proxy to `target` answering nginx's 502 page to the requests `refuse` picks (by method and body), passing the others on. */
async function gateway(target: string, refuse: (method: string, body: string) => boolean) {
  const upstream = new URL(target)
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      if (refuse(req.method ?? 'GET', Buffer.concat(chunks).toString()))
        return void res.writeHead(502, {'content-type': 'text/html'}).end(nginx502)
      const headers = {...req.headers, host: upstream.host}
      const options = {host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers}
      http
        .request(options, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        })
        .end(Buffer.concat(chunks))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {origin, close: () => new Promise((resolve) => server.close(resolve))}
}

describe('a gateway answering 502 with an HTML page', () => {
  it('is named as what it is, and the next push converges', async () => {
    const dir = await temp.make()
    const files: Record<string, string> = {}
    for (let i = 0; i < 24; i++)
      files[`page-${i}.md`] = `# Page ${i}\n\nText ${i}, see [next](page-${(i + 1) % 24}.md).\n`
    await writeFiles(dir, files)
    const root = (await local.client.createItem({type: 'topic', title: 'Gateway', parent_topic_id: null})).id
    let writes = 0
    // The first writes all at once (each waits out its retry), and every write of one page.
    const refused = (method: string, body: string) => method !== 'GET' && (++writes <= 20 || body.includes('"Page 5"'))
    const proxy = await gateway(new URL(local.server.apiUrl).origin, refused)
    try {
      const env = {
        ...local.env,
        KBSYNC_API_URL: `${proxy.origin}/v4`,
        KBSYNC_FILES_URL: `${proxy.origin}/files`,
        KBSYNC_TRUSTED_ORIGINS: proxy.origin
      }
      const faulted = await cli(['push', dir, '--root-topic', root, '--concurrency', '16'], env)
      expect(faulted.code, faulted.err).toBe(1)
      expect(faulted.err).toMatch(
        /failed: 502: an HTML page titled "502 Bad Gateway", not the API's JSON: a proxy or gateway answered in the platform's place, again after a retry: whether the platform behind it saved the write is not known: run the command again/
      )
      expect(faulted.err).not.toMatch(/<html|<title|body it cannot read|saved nothing/)
    } finally {
      await proxy.close()
    }
    const again = await cli(['push', dir, '--root-topic', root], local.env)
    expect(again.code, again.err).toBe(0)
    const tree = await local.client.getTree(root)
    const titles = tree.flatMap((node) => [node.title, ...(node.children ?? []).map((child) => child.title)])
    expect(titles.length).toBe(24)
    expect(new Set(titles).size).toBe(24)
  })
})
