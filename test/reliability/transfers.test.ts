/**
 * Issue 29: verified transfers, end to end through the built CLI. A proxy
 * in front of the local server answers some downloads and uploads with a
 * 200 that is not what was asked (a gateway's HTML page, a body cut short
 * and ended cleanly). A pull ends with the exact bytes of every file or
 * fails naming the file (exit 1, nothing wrong on disk), and the next pull
 * over a clean connection repairs the rest; a push never records a spoiled
 * upload as done, and the next push converges. Temporary files a killed
 * run left beside documents are removed by the next run; a live run's are
 * kept.
 */
import {createHash, randomBytes} from 'node:crypto'
import {mkdir, readdir, readFile, readlink, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {startServer} from '../../src/server/index.js'
import {temporaryFolders} from '../temp-folders.js'
import {runCli} from './helpers.js'
import {gatewayPage, startTransferProxy, type SeenRequest, type Spoil} from './transfer-proxy.js'

type Server = Awaited<ReturnType<typeof startServer>>
const closers: Array<() => Promise<void>> = []
const temporary = temporaryFolders('transfers')

afterAll(async () => {
  for (const close of closers.reverse()) await close()
  await temporary.removeAll()
})

/** A server, a direct client on it, and a spoiling proxy in front of it whose rule can change. */
async function setUp(rule: (request: SeenRequest, seen: number) => Spoil) {
  const server: Server = await startServer({port: 0})
  const client = new KbClient({apiUrl: server.apiUrl, filesUrl: server.filesUrl, token: server.token})
  const state = {rule}
  const seen = new Map<string, number>()
  const proxy = await startTransferProxy(server.filesUrl, (request) => {
    const key = `${request.method} ${request.url}`
    const count = seen.get(key) ?? 0
    seen.set(key, count + 1)
    return state.rule(request, count)
  })
  closers.push(server.close, () => client.close(), proxy.close)
  const env = {KBSYNC_API_URL: `${proxy.origin}/v4`, KBSYNC_FILES_URL: proxy.origin, KBSYNC_TOKEN: server.token}
  return {server, client, proxy, env, state}
}

/** Bytes that look like a PNG image, `size` long. */
function png(size: number): Buffer {
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(size - 8)])
}

function sha(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** Every file the server's articles list, read directly from it: name -> sha256 of its bytes. */
async function serverFiles(client: KbClient, scratch: string): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  const visit = async (nodes: Awaited<ReturnType<KbClient['getTree']>>): Promise<void> => {
    for (const node of nodes) {
      for (const file of (await client.getItem(node.id)).attachments ?? []) {
        const at = path.join(scratch, file.id)
        await client.downloadFile(file.url, at)
        files.set(file.name, sha(await readFile(at)))
      }
      await visit(node.children ?? [])
    }
  }
  await visit(await client.getTree(null))
  return files
}

/** Files under `dir` (relative), dot-files and `.kbsync/` included. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, {recursive: true, withFileTypes: true})
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort()
}

/** The uploads a state file records as done: sha256 -> URL (entries of every `assets` map that have a URL). */
function recordedUploads(json: unknown, into = new Map<string, string>()): Map<string, string> {
  if (json === null || typeof json !== 'object') return into
  for (const [key, value] of Object.entries(json)) {
    if (key === 'assets' && value && typeof value === 'object') {
      for (const [hash, asset] of Object.entries(value as Record<string, {url?: string}>))
        if (typeof asset.url === 'string') into.set(hash, asset.url)
    } else recordedUploads(value, into)
  }
  return into
}

/** `json` (a state file) with the asset recorded under the hash `from` moved to the hash `to` in every `assets` map. */
function rekeyAsset(json: unknown, from: string, to: string): {json: unknown; count: number} {
  let count = 0
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return
    for (const [key, child] of Object.entries(value)) {
      const assets = child as Record<string, unknown>
      if (key === 'assets' && child && typeof child === 'object' && from in assets) {
        assets[to] = assets[from]
        delete assets[from]
        count++
      } else visit(child)
    }
  }
  visit(json)
  return {json, count}
}

const isDownload = (request: SeenRequest) => request.method === 'GET' && request.url.startsWith('/services/kb?')
const isUpload = (request: SeenRequest) => request.url.includes('/files/upload')

describe('verified transfers through a proxy that answers 200 with something else', () => {
  it('pull saves the exact bytes or fails naming the file, and the next pull repairs it', async () => {
    const images = {'flaky.png': png(3000), 'cut.png': png(5000), 'blocked.png': png(4000)}
    const guids = new Map<string, string>()
    const {client, env, state, proxy} = await setUp(() => 'pass')
    const scratch = await temporary.make()
    for (const [name, bytes] of Object.entries(images)) {
      await writeFile(path.join(scratch, name), bytes)
      guids.set((await client.uploadFile(path.join(scratch, name))).guid, name)
    }
    const body = [...guids].map(([guid, name]) => `![${name}](${guid})`).join('\n\n')
    await client.createItem({type: 'article', title: 'Pictures', parent_topic_id: null, body: `Three:\n\n${body}\n`})

    const nameOf = (request: SeenRequest) => guids.get(new URL(request.url, 'http://x').searchParams.get('Id') ?? '')
    // flaky.png: a page, then a cut body, then the file; cut.png: cut once; blocked.png: a gateway page every time.
    state.rule = (request, count) => {
      if (!isDownload(request)) return 'pass'
      const name = nameOf(request)
      if (name === 'flaky.png') return count === 0 ? 'page' : count === 1 ? 'cut' : 'pass'
      if (name === 'cut.png') return count === 0 ? 'cut' : 'pass'
      return name === 'blocked.png' ? 'page' : 'pass'
    }
    const dir = await temporary.make()
    const first = await runCli(['pull', dir], env)
    expect(first.code, first.out + first.err).toBe(1)
    expect(first.err).toMatch(/_assets\/Pictures\/blocked\.png: .*blocked\.png.* is not the file/)
    expect(proxy.counts.page).toBeGreaterThanOrEqual(3)
    expect(proxy.counts.cut).toBeGreaterThanOrEqual(2)
    const assets = path.join(dir, '_assets', 'Pictures')
    expect(await readFile(path.join(assets, 'flaky.png'))).toEqual(images['flaky.png'])
    expect(await readFile(path.join(assets, 'cut.png'))).toEqual(images['cut.png'])
    // Nothing wrong is saved, no temporary file is left, and the body keeps the URL of the file that did not arrive.
    expect((await filesUnder(dir)).filter((file) => file.includes('blocked') || /\.(part|tmp)$/.test(file))).toEqual([])
    expect(await readFile(path.join(dir, 'Pictures.md'), 'utf8')).toMatch(
      /!\[blocked\.png\]\(http:\/\/127\.0\.0\.1:\d+\/services\/kb\?Id=/
    )

    state.rule = () => 'pass'
    const second = await runCli(['pull', dir], env)
    expect(second.code, second.out + second.err).toBe(0)
    expect(await readFile(path.join(assets, 'blocked.png'))).toEqual(images['blocked.png'])
    expect(await readFile(path.join(dir, 'Pictures.md'), 'utf8')).toContain('](_assets/Pictures/blocked.png)')

    // What an older kbsync left: the gateway's page saved as flaky.png and recorded as that URL's content.
    await writeFile(path.join(assets, 'flaky.png'), gatewayPage)
    const stateFile = path.join(dir, '.kbsync', 'state.json')
    const rekeyed = rekeyAsset(
      JSON.parse(await readFile(stateFile, 'utf8')),
      sha(images['flaky.png']),
      sha(Buffer.from(gatewayPage))
    )
    expect(rekeyed.count).toBe(1)
    await writeFile(stateFile, JSON.stringify(rekeyed.json, null, 2) + '\n')
    const third = await runCli(['pull', dir], env)
    expect(third.code, third.out + third.err).toBe(0)
    expect(await readFile(path.join(assets, 'flaky.png'))).toEqual(images['flaky.png'])

    const fourth = await runCli(['pull', dir, '--json'], env)
    expect(fourth.code, fourth.err).toBe(0)
    expect((JSON.parse(fourth.out) as {written: string[]}).written).toEqual([])
  }, 120_000)

  it('push never records a spoiled upload or write as done, and the next push converges', async () => {
    const {server, client, env, state, proxy} = await setUp(() => 'pass')
    const dir = await temporary.make()
    const images = {'a.png': png(2000), 'b.png': png(2500), 'c.png': png(3000), 'd.png': png(3500)}
    await mkdir(path.join(dir, 'img'))
    for (const [name, bytes] of Object.entries(images)) await writeFile(path.join(dir, 'img', name), bytes)
    await writeFile(path.join(dir, 'Guide.md'), '# Guide\n\n![a](img/a.png)\n\n![b](img/b.png)\n\n![c](img/c.png)\n')
    await writeFile(path.join(dir, 'Other.md'), '# Other\n\n![d](img/d.png)\n\nText.\n')
    let uploads = 0
    // Uploads: a page in the server's place, a cut answer, a page over an applied upload; then every one a page.
    // Writes: the first create's answer replaced by a page (it was applied), the first update's answer cut.
    state.rule = (request, count) => {
      if (isUpload(request)) {
        const n = uploads++
        return n === 0 ? 'page' : n === 1 ? 'cut' : n === 2 ? 'page-after' : n < 6 ? 'pass' : 'page'
      }
      if (request.method === 'POST' && request.url.endsWith('/knowledgebase'))
        return count === 0 ? 'page-after' : 'pass'
      if (request.method === 'PUT') return count === 0 ? 'cut' : 'pass'
      return 'pass'
    }
    const first = await runCli(['push', dir], env)
    expect(proxy.counts['page-after']).toBeGreaterThanOrEqual(2)
    // Every upload the state records as done (with a URL) is, at that URL on the server, exactly the file of that hash.
    const scratch = await temporary.make()
    const done = recordedUploads(JSON.parse(await readFile(path.join(dir, '.kbsync', 'state.json'), 'utf8')))
    const journal = await readFile(path.join(dir, '.kbsync', 'state.journal'), 'utf8').catch(() => '')
    for (const line of journal.split('\n').filter(Boolean)) recordedUploads(JSON.parse(line), done)
    for (const [hash, url] of done) {
      const at = path.join(scratch, hash)
      await client.downloadFile(url.replace(proxy.origin, server.filesUrl), at)
      expect(sha(await readFile(at)), url).toBe(hash)
    }

    state.rule = () => 'pass'
    const second = await runCli(['push', dir], env)
    expect(second.code, first.out + first.err + second.out + second.err).toBe(0)
    const files = await serverFiles(client, scratch)
    expect(new Set(files.values())).toEqual(new Set(Object.values(images).map(sha)))
    const titles = (await client.getTree(null)).map((node) => node.title).sort()
    expect(titles).toEqual(['Guide', 'Other'])
    const third = await runCli(['push', dir, '--json'], env)
    expect(third.code, third.err).toBe(0)
    expect((JSON.parse(third.out) as {writes: number}).writes).toBe(0)
  }, 120_000)
})

describe('temporary files of a run that died', () => {
  it("the next run removes those of dead processes, and keeps a live run's, links and dot-folders", async () => {
    const {env} = await setUp(() => 'pass')
    const dir = await temporary.make()
    await writeFile(path.join(dir, 'Doc.md'), '# Doc\n\nText.\n')
    const pushed = await runCli(['push', dir], env)
    expect(pushed.code, pushed.err).toBe(0)
    const outside = await temporary.make()
    await writeFile(path.join(outside, 'precious'), 'kept')
    const plant = async () => {
      await mkdir(path.join(dir, 'sub'), {recursive: true})
      await mkdir(path.join(dir, '.kbsync', 'downloads'), {recursive: true})
      await mkdir(path.join(dir, '.github'), {recursive: true})
      for (const dead of ['.x.md.99999999.0.tmp', 'sub/.y.md.99999999.3.tmp', 'sub/.p.png.99999999.0123456789ab.part'])
        await writeFile(path.join(dir, dead), 'half')
      await writeFile(path.join(dir, '.kbsync', '.state.json.99999999.0.tmp'), '{')
      await writeFile(path.join(dir, '.kbsync', 'downloads', '99999999.0'), 'half')
      // This test's process is alive and started before the file was written: a live run's file.
      await writeFile(path.join(dir, `.live.md.${process.pid}.0.tmp`), 'in progress')
      await writeFile(path.join(dir, '.github', '.w.md.99999999.0.tmp'), 'not ours')
      await symlink(path.join(outside, 'precious'), path.join(dir, '.l.md.99999999.0.tmp')).catch(() => undefined)
    }
    const left = async () => (await filesUnder(dir)).filter((file) => /99999999|\.tmp$|\.part$/.test(file))
    const kept = ['.github/.w.md.99999999.0.tmp', `.live.md.${process.pid}.0.tmp`]
    for (const command of ['status', 'pull', 'push']) {
      await plant()
      const run = await runCli([command, dir], env)
      expect(run.code, `${command}: ${run.out}${run.err}`).toBe(0)
      expect(await left(), command).toEqual(kept.sort())
      expect(await readlink(path.join(dir, '.l.md.99999999.0.tmp')), command).toBe(path.join(outside, 'precious'))
      expect(await readFile(path.join(outside, 'precious'), 'utf8')).toBe('kept')
    }
  }, 120_000)
})
