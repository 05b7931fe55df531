/** Upload, download and whole-tree mechanics against scripted servers. */
import {createHash} from 'node:crypto'
import {readdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {useTinyServers} from './harness.js'
import {json, type Handler, type Tiny} from './tiny-server.js'

const TOKEN = 'tok-FILES-0123456789'
const tiny = useTinyServers('kbsync-api-files-')
const serve = tiny.serve

function client(server: Tiny, extra: Record<string, unknown> = {}): KbClient {
  return tiny.track(new KbClient({apiUrl: `${server.url}/v4`, token: TOKEN, retryBaseMs: 5, ...extra}))
}

/** The `file` part of a multipart body. */
function filePart(body: Buffer, contentType: string): {name: string; filename: string; data: Buffer} {
  const boundary = /boundary=(.+)$/.exec(contentType)![1]!
  const text = body.toString('latin1')
  const start = text.indexOf(`--${boundary}\r\n`) + boundary.length + 4
  const headerEnd = text.indexOf('\r\n\r\n', start)
  const head = text.slice(start, headerEnd)
  const end = text.indexOf(`\r\n--${boundary}--`, headerEnd)
  // The head is read byte for byte (latin1) to find the offsets; a file name is UTF-8.
  const filename = Buffer.from(/filename="([^"]*)"/.exec(head)![1]!, 'latin1').toString('utf8')
  return {name: /name="([^"]+)"/.exec(head)![1]!, filename, data: body.subarray(headerEnd + 4, end)}
}

describe('upload', () => {
  it('sends one file in part `file` (read whole when small, streamed when large), to {apiUrl}/files/upload without a files URL, and checks md5_hash', async () => {
    for (const size of [200_000, 5 * 1048576]) {
      const content = Buffer.concat([Buffer.from('binary\0data\r\n--not-a-boundary\r\n'), Buffer.alloc(size, 7)])
      const file = path.join(tiny.dir, 'pic one.png')
      await writeFile(file, content)
      const server = await serve((req, res) => {
        const part = filePart(req.body, String(req.headers['content-type']))
        json(res, 200, {
          guid: '7e1f0000-0000-4000-8000-000000000001',
          md5_hash: createHash('md5').update(part.data).digest('hex')
        })
      })
      const result = await client(server).uploadFile(file)
      expect(result.md5_hash).toBe(createHash('md5').update(content).digest('hex'))
      const seen = server.seen[0]!
      expect(seen.url).toBe('/v4/files/upload')
      expect(Number(seen.headers['content-length'])).toBe(seen.body.length)
      const part = filePart(seen.body, String(seen.headers['content-type']))
      expect(part).toMatchObject({name: 'file', filename: 'pic one.png'})
      expect(part.data.equals(content)).toBe(true)
    }
  })

  it('names the file as browsers do: only a quote and line breaks are escaped', async () => {
    const file = path.join(tiny.dir, 'named.png')
    await writeFile(file, 'png bytes')
    const server = await serve((req, res) =>
      json(res, 200, {
        guid: 'g3',
        md5_hash: createHash('md5')
          .update(filePart(req.body, String(req.headers['content-type'])).data)
          .digest('hex')
      })
    )
    for (const name of ['100% pic.png', 'say "cheese".png', 'caf\u00e9 #1 & co.png'])
      await client(server).uploadFile(file, {name})
    expect(server.seen.map((seen) => filePart(seen.body, String(seen.headers['content-type'])).filename)).toEqual([
      '100% pic.png',
      'say %22cheese%22.png',
      'caf\u00e9 #1 & co.png'
    ])
  })

  it('uses {filesUrl}/v4/files/upload, re-opens the file after a dropped connection, and rejects a wrong md5', async () => {
    const file = path.join(tiny.dir, 'doc.pdf')
    await writeFile(file, 'pdf bytes')
    let calls = 0
    const server = await serve((req, res) => {
      calls++
      if (calls === 1) return 'drop'
      if (req.url.includes('bad')) return json(res, 200, {guid: 'g', md5_hash: '00000000000000000000000000000000'})
      json(res, 200, {
        guid: 'g2',
        md5_hash: createHash('md5')
          .update(filePart(req.body, String(req.headers['content-type'])).data)
          .digest('hex')
      })
    })
    const c = client(server, {filesUrl: `${server.url}/`})
    expect((await c.uploadFile(file, {name: 'renamed.pdf'})).guid).toBe('g2')
    expect(server.seen.map((s) => s.url)).toEqual(['/v4/files/upload', '/v4/files/upload'])
    expect(filePart(server.seen[1]!.body, String(server.seen[1]!.headers['content-type'])).data.toString()).toBe(
      'pdf bytes'
    )
    const bad = client(server, {filesUrl: `${server.url}/bad`, retries: 2})
    await expect(bad.uploadFile(file)).rejects.toMatchObject({errorCode: 'md5_mismatch', method: 'POST'})
  })
})

describe('download', () => {
  it('writes atomically, retries a cut transfer, and sends the token only to its own hosts', async () => {
    let calls = 0
    const api = await serve((req, res) => {
      calls++
      res.writeHead(200, {'content-length': '10'})
      if (calls === 1) {
        res.write('half')
        return 'drop'
      }
      res.end('0123456789')
    })
    const foreign = await serve((req, res) => {
      res.writeHead(200)
      res.end('elsewhere')
    })
    const c = client(api, {foreignDownloads: 'anonymous'})
    const dest = path.join(tiny.dir, 'out.bin')
    expect(await c.downloadFile(`${api.url}/services/kb?Id=abc`, dest)).toEqual({bytes: 10})
    expect(await readFile(dest, 'utf8')).toBe('0123456789')
    expect(api.seen.every((s) => s.headers.authorization === `Bearer ${TOKEN}`)).toBe(true)
    await c.downloadFile(`${foreign.url}/img.png`, path.join(tiny.dir, 'img.png'))
    expect(foreign.seen[0]!.headers.authorization).toBeUndefined()
    expect((await readdir(tiny.dir)).filter((f) => f.endsWith('.part'))).toEqual([])
  })

  it('leaves neither the file nor a temp file when the download fails', async () => {
    const api = await serve((req, res) => json(res, 404, {error_code: 'not_found', error: 'no'}))
    const dest = path.join(tiny.dir, 'missing.bin')
    await expect(client(api).downloadFile('/services/kb?Id=x', dest)).rejects.toMatchObject({status: 404})
    expect((await readdir(tiny.dir)).filter((f) => f.includes('missing'))).toEqual([])
  })
})

describe('getTree', () => {
  type Node = {id: string; type: 'topic' | 'article'; title: string; parent_topic_id: string | null; children?: Node[]}
  // A chain of topics 8 deep with an article at every level.
  const all: Node[] = []
  for (let i = 0; i < 8; i++) {
    all.push({id: `T${i}`, type: 'topic', title: `Topic ${i}`, parent_topic_id: i === 0 ? null : `T${i - 1}`})
    all.push({id: `A${i}`, type: 'article', title: `Article ${i}`, parent_topic_id: i === 0 ? null : `T${i - 1}`})
  }
  all.push({id: 'E', type: 'topic', title: 'Empty', parent_topic_id: null})
  function build(parent: string | null, depth: number, max: number): Node[] {
    return all
      .filter((n) => n.parent_topic_id === parent)
      .map((n) => (n.type === 'topic' && depth < max ? {...n, children: build(n.id, depth + 1, max)} : {...n}))
  }
  /** With `echoAsked`, the answer's `depth` is the one asked for even when the server cut the tree shallower. */
  const structureServer =
    (maxDepth: number, echoAsked = false): Handler =>
    (req, res) => {
      const url = new URL(req.url, 'http://x')
      const asked = Number(url.searchParams.get('depth') ?? 2)
      const depth = Math.min(asked, maxDepth)
      const parent = url.searchParams.get('parent_topic_id')
      json(res, 200, {parent_topic_id: parent, depth: echoAsked ? asked : depth, items: build(parent, 1, depth)})
    }
  const count = (nodes: Node[]): number => nodes.reduce((n, node) => n + 1 + count(node.children ?? []), 0)

  it('gets the whole tree in one request from a server that honours the depth', async () => {
    const server = await serve(structureServer(50))
    const tree = (await client(server).getTree()) as Node[]
    expect(count(tree)).toBe(all.length)
    expect(server.seen).toHaveLength(1)
    expect(server.seen[0]!.url).toBe('/v4/knowledgebase/structure?depth=10')
  })

  it('fetches the subtrees a server cut at its depth limit', async () => {
    const server = await serve(structureServer(3))
    const tree = (await client(server).getTree()) as Node[]
    expect(count(tree)).toBe(all.length)
    const t3 = tree
      .find((n) => n.id === 'T0')!
      .children!.find((n) => n.id === 'T1')!
      .children!.find((n) => n.id === 'T2')!
    expect(t3.children!.map((n) => n.id).sort()).toEqual(['A3', 'T3'])
    // The empty topic at level 1 is not fetched again; chain of 8 cut every 3 levels: 3 requests.
    expect(server.seen).toHaveLength(3)
  })

  it('fetches the cut subtrees of a server that echoes the depth asked for, not the one it used', async () => {
    const server = await serve(structureServer(3, true))
    const tree = (await client(server).getTree()) as Node[]
    expect(count(tree)).toBe(all.length)
    expect(server.seen).toHaveLength(3)
  })

  it('starts below a topic', async () => {
    const server = await serve(structureServer(50))
    const tree = (await client(server).getTree('T5')) as Node[]
    expect(tree.map((n) => n.id).sort()).toEqual(['A6', 'T6'])
    expect(server.seen[0]!.url).toContain('parent_topic_id=T5')
  })
})
