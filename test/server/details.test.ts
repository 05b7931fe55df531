import {builtCli} from '../built.js'
import {spawn} from 'node:child_process'
import {mkdtempSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {startServer, type RunningServer} from '../../src/server/index.js'

const servers: RunningServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

async function start(options: Parameters<typeof startServer>[0] = {}) {
  const server = await startServer({seed: 11, ...options})
  servers.push(server)
  const call = async (method: string, path: string, body?: unknown, raw?: string) => {
    const headers: Record<string, string> = {authorization: `Bearer ${server.token}`}
    if (body !== undefined || raw !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(server.apiUrl + path, {
      method,
      headers,
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body))
    })
    return {status: response.status, json: (await response.json()) as any}
  }
  return {server, call}
}

describe('local server: details', () => {
  it('refuses to move a topic into its own subtree, and rejects malformed JSON', async () => {
    const {call} = await start()
    const a = (await call('POST', '/knowledgebase', {type: 'topic', title: 'A'})).json
    const b = (await call('POST', '/knowledgebase', {type: 'topic', title: 'B', parent_topic_id: a.id})).json
    expect(a.id).toMatch(/^[A-Za-z0-9]{11}$/)
    const loop = await call('PUT', `/knowledgebase/${a.id}`, {parent_topic_id: b.id, parent_topic_id_changed: true})
    expect([loop.status, loop.json.error_code]).toEqual([400, 'knowledge_base_invalid_parent'])
    const self = await call('PUT', `/knowledgebase/${a.id}`, {parent_topic_id: a.id, parent_topic_id_changed: true})
    expect(self.json.error_code).toBe('knowledge_base_invalid_parent')
    const broken = await call('POST', '/knowledgebase', undefined, '{"title": ')
    expect([broken.status, broken.json.error_code]).toEqual([400, 'knowledge_base_invalid_request'])
    // No type and no body: the default type is article, which needs a body.
    expect((await call('POST', '/knowledgebase', {title: 'X'})).json.error_code).toBe('knowledge_base_body_required')
  })

  it('gives topics within the depth children arrays, in creation order, with timestamps', async () => {
    const {call} = await start()
    const t = (await call('POST', '/knowledgebase', {type: 'topic', title: 'T'})).json
    const empty = (await call('POST', '/knowledgebase', {type: 'topic', title: 'Empty'})).json
    for (const title of ['Zeta', 'Alpha', 'Mid'])
      await call('POST', '/knowledgebase', {title, body: 'x', parent_topic_id: t.id})
    const answer = (await call('GET', '/knowledgebase/structure')).json
    expect(answer.depth).toBe(2)
    expect(answer.items.map((n: any) => n.title)).toEqual(['T', 'Empty'])
    expect(answer.items[1]).toMatchObject({id: empty.id, children: []})
    expect(answer.items[0].children.map((n: any) => n.title)).toEqual(['Zeta', 'Alpha', 'Mid'])
    expect(answer.items[0].children[0]).toHaveProperty('created_at')
    expect(answer.items[0].children[0]).toHaveProperty('updated_at')
    const one = (await call('GET', '/knowledgebase/structure?depth=1')).json
    expect('children' in one.items[0]).toBe(false)
  })

  it('makes successive changes distinguishable by updated_at', async () => {
    const {call} = await start()
    const a = (await call('POST', '/knowledgebase', {title: 'A', body: '1'})).json
    const stamps = [a.updated_at]
    for (const body of ['2', '3', '4'])
      stamps.push((await call('PUT', `/knowledgebase/${a.id}`, {body})).json.updated_at)
    expect(new Set(stamps).size).toBe(4)
    expect([...stamps].sort()).toEqual(stamps)
  })

  it('defaults topic permissions to inherited', async () => {
    const {call} = await start()
    const t = (await call('POST', '/knowledgebase', {type: 'topic', title: 'T'})).json
    expect((await call('GET', `/knowledgebase/${t.id}/permissions`)).json).toMatchObject({
      inherit: true,
      readers: [],
      editors: []
    })
  })

  it('answers empty_file and no_file_in_request, and wants a token to download', async () => {
    const {server} = await start()
    const auth = {authorization: `Bearer ${server.token}`}
    const empty = new FormData()
    empty.append('file', new Blob([]), 'e.txt')
    const a = await fetch(`${server.apiUrl}/files/upload`, {method: 'POST', headers: auth, body: empty})
    expect([a.status, ((await a.json()) as any).error_code]).toEqual([400, 'empty_file'])
    const other = new FormData()
    other.append('attachment', 'a text field, not a file')
    const b = await fetch(`${server.apiUrl}/files/upload`, {method: 'POST', headers: auth, body: other})
    expect(((await b.json()) as any).error_code).toBe('no_file_in_request')
    const good = new FormData()
    good.append('file', new Blob(['hi']), 'h.txt')
    const {guid} = (await (
      await fetch(`${server.filesUrl}/v4/files/upload`, {method: 'POST', headers: auth, body: good})
    ).json()) as any
    expect((await fetch(`${server.filesUrl}/services/kb?Id=${guid}`)).status).toBe(401)
  })

  it('rewrites <img> and href guids in any quoting; an attached URL stays', async () => {
    const {server, call} = await start()
    const auth = {authorization: `Bearer ${server.token}`}
    const upload = async (name: string) => {
      const form = new FormData()
      form.append('file', new Blob([name]), name)
      return (
        (await (
          await fetch(`${server.filesUrl}/v4/files/upload`, {method: 'POST', headers: auth, body: form})
        ).json()) as any
      ).guid as string
    }
    const [g1, g2, g3] = [await upload('a.png'), await upload('b.png'), await upload('c.pdf')]
    const url = (g: string) => `${server.filesUrl}/services/kb?Id=${g}`
    const body = `<img src=${g1} width="10"> <img src='${g2}'> <a href="${g3}">doc</a>`
    const item = (await call('POST', '/knowledgebase', {title: 'A', body})).json
    expect(item.body).toBe(`<img src=${url(g1)} width="10"> <img src='${url(g2)}'> <a href="${url(g3)}">doc</a>`)
    expect(item.attachments.map((f: any) => f.name)).toEqual(['a.png', 'b.png', 'c.pdf'])
    const again = (await call('PUT', `/knowledgebase/${item.id}`, {body: item.body + '\n\nmore'})).json
    expect(again.attachments).toHaveLength(3)
    expect(again.body.startsWith(item.body)).toBe(true)
  })

  it('replaces a guid only where the body uses it as a file, not where it shows it as text or code', async () => {
    const {server, call} = await start()
    const auth = {authorization: `Bearer ${server.token}`}
    const form = new FormData()
    form.append('file', new Blob(['x']), 'x.png')
    const guid = (
      (await (
        await fetch(`${server.filesUrl}/v4/files/upload`, {method: 'POST', headers: auth, body: form})
      ).json()) as any
    ).guid as string
    const shown = `The guid \`${guid}\` came back.\n\n\`\`\`\n${guid}\n\`\`\`\n`
    const item = (await call('POST', '/knowledgebase', {title: 'Shown', body: shown})).json
    expect(item.body).toBe(shown)
    expect(item.attachments ?? []).toEqual([])
    const used = (await call('POST', '/knowledgebase', {title: 'Used', body: `![x](${guid})`})).json
    expect(used.body).toBe(`![x](${server.filesUrl}/services/kb?Id=${guid})`)
  })

  it("never applies a 'drop-before' write, logs faults, and keeps tokens out of the log", async () => {
    const {server, call} = await start({failRate: 1, failModes: ['drop-before']})
    await expect(call('POST', '/knowledgebase', {title: 'A', body: 'x'})).rejects.toThrow()
    expect(server.items()).toHaveLength(0)
    expect(server.requestLog()[0]).toMatchObject({endpoint: 'create', write: true, faulted: 'drop-before'})
    server.setFaults({failRate: 0})
    await call('GET', '/knowledgebase/structure?depth=1&access_token=leaky')
    expect(server.requestLog()[1]!.path).toBe('/v4/knowledgebase/structure?depth=1&access_token=***')
    expect(server.counts()).toMatchObject({create: 1, structure: 1, writes: 1})
    expect(JSON.stringify(server.requestLog())).not.toContain(server.token)
    server.resetLog()
    expect(server.requestLog()).toEqual([])
  })

  it('serves an escaped browse page at / without a token', async () => {
    const {server, call} = await start()
    await call('POST', '/knowledgebase', {type: 'topic', title: '<script>alert(1)</script>'})
    const page = await (await fetch(`${server.filesUrl}/`)).text()
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(page).not.toContain('<script>')
  })
})

describe('local server: persistence under crashes', () => {
  it('ignores a stray temp file and leaves none behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kbsync-server-'))
    const dataPath = join(dir, 'kb.json')
    writeFileSync(`${dataPath}.999.tmp`, '{"torn')
    const {server, call} = await start({dataPath})
    for (let i = 0; i < 5; i++) await call('POST', '/knowledgebase', {title: `A${i}`, body: 'x'})
    await server.close()
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp') && !f.includes('999'))).toEqual([])
    const again = await start({dataPath})
    expect(again.server.items()).toHaveLength(5)
  })

  it('keeps every answered write, and loads, when killed with SIGKILL in the middle of writes', async () => {
    const dataPath = join(mkdtempSync(join(tmpdir(), 'kbsync-server-')), 'kb.json')
    const child = spawn(process.execPath, [builtCli, 'serve', '--data', dataPath], {stdio: ['ignore', 'pipe', 'pipe']})
    let out = ''
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += String(d)
        const match = /at (http:\/\/127\.0\.0\.1:\d+\/v4)/.exec(out)
        if (match) resolve(match[1]!)
      })
      child.once('exit', () => reject(new Error(out)))
    })
    const exited = new Promise((resolve) => child.once('exit', resolve))
    // Killed once five writes are answered, with the others in flight.
    let answers = 0
    const writes = Array.from({length: 40}, (_, i) =>
      fetch(`${url}/knowledgebase`, {
        method: 'POST',
        headers: {authorization: 'Bearer kbsync-local-token', 'content-type': 'application/json'},
        body: JSON.stringify({title: `Item ${i}`, body: 'x'.repeat(20_000)})
      })
        .then(async (answer) => {
          const {id} = (await answer.json()) as {id: string}
          if (++answers === 5) child.kill('SIGKILL')
          return id
        })
        .catch(() => undefined)
    )
    const answered = (await Promise.all(writes)).filter((id) => id !== undefined)
    await exited
    expect(answered.length).toBeGreaterThanOrEqual(5)
    const data = JSON.parse(readFileSync(dataPath, 'utf8'))
    expect(Array.isArray(data.items)).toBe(true)
    const restarted = await start({dataPath})
    const kept = restarted.server.items().map((item) => item.id)
    expect(kept.length).toBeGreaterThanOrEqual(answered.length)
    expect(kept).toEqual(expect.arrayContaining(answered))
  })
})
