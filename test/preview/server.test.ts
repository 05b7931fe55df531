/**
 * The preview server over real HTTP: pages, escaping, the folder's files
 * and nothing outside it, the host check, live events.
 */
import {readFile, mkdir, symlink, writeFile} from 'node:fs/promises'
import http from 'node:http'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startPreview, type PreviewServer} from '../../src/preview/index.js'
import {repoRoot, scratchCopy} from './helpers.js'

/** A raw GET (fetch would normalise `..` away before sending). */
function get(
  server: PreviewServer,
  rawPath: string,
  headers: Record<string, string> = {}
): Promise<{status: number; type: string; body: Buffer}> {
  return new Promise((resolve, reject) => {
    const request = http.request({host: '127.0.0.1', port: server.port, path: rawPath, headers}, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          type: String(response.headers['content-type']),
          body: Buffer.concat(chunks)
        })
      )
    })
    request.on('error', reject)
    request.end()
  })
}

describe('preview server', () => {
  let scratch: Awaited<ReturnType<typeof scratchCopy>>
  let server: PreviewServer

  beforeAll(async () => {
    scratch = await scratchCopy()
    await writeFile(
      path.join(scratch.dir, 'evil.md'),
      '---\ntitle: "<script>alert(1)</script> & co"\n---\n\nText <img src=x onerror=alert(2)> here.\n'
    )
    await mkdir(path.join(scratch.dir, '.kbsync'))
    await writeFile(path.join(scratch.dir, '.kbsync/state.json'), '{"secret": true}')
    await symlink(path.join(repoRoot, 'package.json'), path.join(scratch.dir, 'img/escape.json'))
    server = await startPreview({dir: scratch.dir})
  })

  afterAll(async () => {
    await server?.close()
    await scratch?.remove()
  })

  it('listens on the loopback interface only', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`)
  })

  it('escapes titles and leaves no script of the files in the page', async () => {
    const page = await get(server, '/a/evil.md')
    const html = page.body.toString()
    expect(page.status).toBe(200)
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; co')
    expect(html).not.toContain('<script>alert')
    expect(html).not.toMatch(/<img[^>]*onerror/i)
  })

  it("serves the folder's files with their type", async () => {
    const image = await get(server, '/f/img/flow.png')
    expect(image.status).toBe(200)
    expect(image.type).toBe('image/png')
    expect(image.body.equals(await readFile(path.join(scratch.dir, 'img/flow.png')))).toBe(true)
  })

  it.each([
    '/f/../package.json',
    '/f/%2e%2e/%2e%2e/package.json',
    '/f/img/..%2f..%2fpackage.json',
    '/f/.kbsync/state.json',
    '/f/img/escape.json',
    '/f/img',
    '/f//etc/passwd'
  ])('serves nothing outside the folder: %s', async (rawPath) => {
    const response = await get(server, rawPath)
    expect(response.status).toBe(404)
    expect(response.body.toString()).not.toContain('"secret"')
    expect(response.body.toString()).not.toContain('"name": "kbsync"')
  })

  it('prefixes anchor ids and points in-page and cross-page links at them', async () => {
    const install = (await get(server, '/a/guides/install.md')).body.toString()
    expect(install).toContain('id="user-content-step-two"')
    expect(install).toContain('href="#user-content-step-two"')
    expect(install).toContain('href="/a/welcome.md#user-content-numbers"')
    expect((await get(server, '/a/welcome.md')).body.toString()).toContain('id="user-content-numbers"')
  })

  it('refuses requests for another host name (DNS rebinding)', async () => {
    const response = await get(server, '/', {Host: 'attacker.example:80'})
    expect(response.status).toBe(403)
  })

  it('answers an unknown page with 404 and the navigation', async () => {
    const response = await get(server, '/a/nope.md')
    expect(response.status).toBe(404)
    expect(response.body.toString()).toContain('href="/a/welcome.md"')
  })

  it('gives the parts of a page as JSON for live reload', async () => {
    const response = await get(server, '/_/fragment?path=' + encodeURIComponent('/a/guides/broken.md'))
    const fragment = JSON.parse(response.body.toString()) as {
      nav: string
      main: string
      documentTitle: string
      version: number
    }
    expect(fragment.documentTitle).toContain('Broken article')
    expect(fragment.main).toContain('missing-link-target')
    expect(fragment.nav).toContain('aria-current="page"')
    expect(typeof fragment.version).toBe('number')
  })

  it('tells listening pages about a saved file within a second', async () => {
    const received = new Promise<string>((resolve, reject) => {
      const request = http.get({host: '127.0.0.1', port: server.port, path: '/_/events'}, (response) => {
        let text = ''
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString()
          if (text.includes('event: change')) {
            request.destroy()
            resolve(text)
          }
        })
      })
      request.on('error', (error) => (error.message.includes('socket hang up') ? undefined : reject(error)))
      request.on('response', () => {
        void writeFile(path.join(scratch.dir, 'welcome.md'), '# Welcome\n\nChanged.\n')
      })
    })
    const started = Date.now()
    const text = await received
    expect(Date.now() - started).toBeLessThan(1000)
    expect(text).toMatch(/"paths":\["welcome\.md"\]/)
  })
})
