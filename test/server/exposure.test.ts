/**
 * The local server exposed beyond loopback takes only the operator's token
 * and credentials; on any address it answers only requests addressed to it
 * by name, JSON only as JSON, and never lets a browser sniff an answer.
 */
import {request} from 'node:http'
import {describe, expect, it} from 'vitest'
import {startServer, type RunningServer, type ServerOptions} from '../../src/server/index.js'
import {run, tempDir} from '../cli/helpers.js'
import {serversPerTest} from './helpers.js'

const startServed = serversPerTest({seed: 5})
const start = async (options: ServerOptions = {}) => (await startServed(options)).server

/** The local URL of a server bound to a wildcard address. */
const local = (server: RunningServer) => `http://127.0.0.1:${new URL(server.filesUrl).port}`

const login = (base: string, body: unknown, type = 'application/json') =>
  fetch(`${base}/v4/auth`, {method: 'POST', headers: {'content-type': type}, body: JSON.stringify(body)})

/** A request with a Host header of our choosing (fetch does not let one set it). */
function withHost(
  url: string,
  host: string,
  options: {method?: string; headers?: Record<string, string>; body?: string} = {}
) {
  return new Promise<{status: number; headers: Record<string, unknown>; text: string}>((resolve, reject) => {
    const req = request(url, {method: options.method ?? 'GET', headers: {...options.headers, host}}, (res) => {
      let text = ''
      res.on('data', (d) => (text += String(d)))
      res.on('end', () => resolve({status: res.statusCode!, headers: res.headers, text}))
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

describe('local server beyond loopback', () => {
  it('refuses the public default login when exposed with an operator token, and accepts the operator token', async () => {
    const server = await start({host: '0.0.0.0', token: 'S3cret-operator-token'})
    const refused = await login(local(server), {login: 'local', security_key: 'local-key'})
    expect(refused.status).toBe(401)
    expect(((await refused.json()) as {error_code: string}).error_code).toBe('invalid_credentials')
    const structure = await fetch(`${local(server)}/v4/knowledgebase/structure`, {
      headers: {authorization: 'Bearer S3cret-operator-token'}
    })
    expect(structure.status).toBe(200)
    const publicToken = await fetch(`${local(server)}/v4/knowledgebase/structure`, {
      headers: {authorization: 'Bearer kbsync-local-token'}
    })
    expect(publicToken.status).toBe(401)
  })

  it("accepts the operator's own login when exposed", async () => {
    const server = await start({
      host: '0.0.0.0',
      token: 'S3cret-operator-token',
      login: 'ops',
      securityKey: 'ops-key-1'
    })
    const answer = await login(local(server), {login: 'ops', security_key: 'ops-key-1'})
    expect(answer.status).toBe(200)
    const {access_token} = (await answer.json()) as {access_token: string}
    expect(
      (await fetch(`${local(server)}/v4/knowledgebase/structure`, {headers: {authorization: `Bearer ${access_token}`}}))
        .status
    ).toBe(200)
  })

  it('refuses to start exposed with the public token, the public login or an empty token', async () => {
    await expect(startServer({host: '0.0.0.0'})).rejects.toThrow(/token of your own/)
    await expect(startServer({host: '0.0.0.0', token: 'kbsync-local-token'})).rejects.toThrow(/public local token/)
    await expect(
      startServer({host: '0.0.0.0', token: 'S3cret-operator-token', login: 'local', securityKey: 'local-key'})
    ).rejects.toThrow(/public local credentials/)
    await expect(startServer({token: ''})).rejects.toThrow(/token is empty/)
  })

  it("kbsync serve: --token '' is a usage error, beyond loopback and on it", async () => {
    const cwd = await tempDir()
    for (const args of [['--host', '0.0.0.0'], []]) {
      const result = await run(['serve', '--data', ':memory:', '--token', '', ...args], {cwd})
      expect(result.code).toBe(2)
      expect(result.err).toMatch(/token is empty/)
    }
    const half = await run(['serve', '--data', ':memory:', '--login', 'ops'], {cwd})
    expect([half.code, half.err]).toEqual([2, expect.stringMatching(/both a login and a security key/)])
    const help = await run(['serve', '--help'], {cwd})
    expect(help.out).toMatch(/--login L/)
    expect(help.out).toMatch(/KBSYNC_SERVE_SECURITY_KEY/)
  })
})

describe('local server: requests a browser can be tricked into', () => {
  it('answers 403 to a Host that is not its own, on API routes, /auth and the browse page', async () => {
    const server = await start()
    const port = new URL(server.filesUrl).port
    const auth = {authorization: `Bearer ${server.token}`}
    for (const host of ['evil.example:' + port, 'localhost:1', 'evil.example']) {
      expect((await withHost(`${server.apiUrl}/knowledgebase/structure`, host, {headers: auth})).status).toBe(403)
      expect((await withHost(`${server.filesUrl}/`, host)).status).toBe(403)
      const body = JSON.stringify({login: 'local', security_key: 'local-key'})
      expect(
        (
          await withHost(`${server.apiUrl}/auth`, host, {
            method: 'POST',
            headers: {'content-type': 'application/json'},
            body
          })
        ).status
      ).toBe(403)
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `127.1.2.3:${port}`, `LOCALHOST:${port}`]) {
      expect((await withHost(`${server.apiUrl}/knowledgebase/structure`, host, {headers: auth})).status).toBe(200)
    }
  })

  it('answers the configured names and no others when exposed', async () => {
    const server = await start({host: '0.0.0.0', token: 'S3cret-operator-token', allowedHosts: ['kb.internal']})
    const port = new URL(server.filesUrl).port
    const auth = {authorization: 'Bearer S3cret-operator-token'}
    expect(
      (await withHost(`${local(server)}/v4/knowledgebase/structure`, `kb.internal:${port}`, {headers: auth})).status
    ).toBe(200)
    expect(
      (await withHost(`${local(server)}/v4/knowledgebase/structure`, `other.internal:${port}`, {headers: auth})).status
    ).toBe(403)
  })

  it('refuses JSON sent as text/plain or without a type (415), so no page can send a simple cross-origin request', async () => {
    const server = await start()
    const plain = await login(server.filesUrl, {login: 'local', security_key: 'local-key'}, 'text/plain;charset=UTF-8')
    expect([plain.status, ((await plain.json()) as {error_code: string}).error_code]).toEqual([
      415,
      'unsupported_media_type'
    ])
    const create = await fetch(`${server.apiUrl}/knowledgebase`, {
      method: 'POST',
      headers: {authorization: `Bearer ${server.token}`, 'content-type': 'text/plain'},
      body: JSON.stringify({title: 'A', body: 'x'})
    })
    expect(create.status).toBe(415)
    const untyped = await fetch(`${server.apiUrl}/knowledgebase`, {
      method: 'POST',
      headers: {authorization: `Bearer ${server.token}`},
      body: new Blob([JSON.stringify({title: 'A', body: 'x'})])
    })
    expect(untyped.status).toBe(415)
    expect(server.items()).toEqual([])
    const json = await login(
      server.filesUrl,
      {login: 'local', security_key: 'local-key'},
      'Application/JSON; charset=utf-8'
    )
    expect(json.status).toBe(200)
  })

  it('sends X-Content-Type-Options: nosniff on every answer', async () => {
    const server = await start()
    const answers = [
      await fetch(`${server.apiUrl}/knowledgebase/structure`, {headers: {authorization: `Bearer ${server.token}`}}),
      await fetch(`${server.apiUrl}/knowledgebase/structure`),
      await fetch(`${server.filesUrl}/`),
      await fetch(`${server.apiUrl}/nowhere`, {headers: {authorization: `Bearer ${server.token}`}}),
      await login(server.filesUrl, {login: 'local', security_key: 'local-key'})
    ]
    for (const answer of answers) expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
    const foreign = await withHost(`${server.apiUrl}/knowledgebase/structure`, 'evil.example')
    expect(foreign.headers['x-content-type-options']).toBe('nosniff')
  })
})
