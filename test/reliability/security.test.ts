/**
 * Security: nothing outside the synced folder is read or uploaded; HTML
 * outside the dialect never reaches a stored body as live markup; the token
 * and the security key show in no output, error, state file or request log;
 * the server binds loopback and refuses requests without the token.
 */
import {mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startServer} from '../../src/server/index.js'
import {runCli} from './helpers.js'

type Server = Awaited<ReturnType<typeof startServer>>
const token = 'tok-SECRET-5c1d9e7a0b'
const securityKey = 'key-SECRET-8e2f4a6c1d'
const outsideMarker = 'OUTSIDE-CONTENT-41b7'
let server: Server
let base = ''
let dir = ''

beforeAll(async () => {
  server = await startServer({port: 0, token, login: 'bot@local', securityKey})
  base = await mkdtemp(path.join(tmpdir(), 'kbsync-security-'))
  dir = path.join(base, 'docs')
  const outside = path.join(base, 'outside')
  await mkdir(dir)
  await mkdir(outside)
  await writeFile(path.join(outside, 'secret.md'), `# Secret\n\n${outsideMarker}\n`)
  await writeFile(path.join(outside, 'secret.png'), outsideMarker)
  await symlink(outside, path.join(dir, 'linked-outside'))
  await symlink(path.join(outside, 'secret.md'), path.join(dir, 'secret-link.md'))
  await writeFile(
    path.join(dir, 'html.md'),
    [
      '# Html',
      '',
      'Text <script>alert("x")</script> and <img src="https://example.com/x.png" onerror="alert(1)"> here.',
      '',
      '<script>document.cookie</script>',
      '',
      '[click](javascript:alert(1)) and <a href="javascript:alert(2)">two</a>.',
      '',
      '<div onclick="steal()">box</div>',
      ''
    ].join('\n')
  )
})

afterAll(async () => {
  await server?.close()
  if (base) await rm(base, {recursive: true, force: true})
})

/** Every file under `root` (including `.kbsync/`), as text. */
async function allText(root: string): Promise<string> {
  const parts: string[] = []
  for (const entry of await readdir(root, {withFileTypes: true, recursive: true})) {
    if (entry.isFile()) parts.push(await readFile(path.join(entry.parentPath, entry.name), 'utf8'))
  }
  return parts.join('\n')
}

describe('security', () => {
  it('the server binds loopback and refuses requests without (or with a wrong) token', async () => {
    expect(new URL(server.apiUrl).hostname).toBe('127.0.0.1')
    expect((await fetch(`${server.apiUrl}/knowledgebase/structure`)).status).toBe(401)
    expect(
      (await fetch(`${server.apiUrl}/knowledgebase/structure`, {headers: {authorization: 'Bearer wrong'}})).status
    ).toBe(401)
    expect(
      (await fetch(`${server.apiUrl}/knowledgebase/structure`, {headers: {authorization: `Bearer ${token}`}})).status
    ).toBe(200)
  })

  it('push (token, then login + security key): nothing outside read, foreign HTML escaped, no secret anywhere', async () => {
    const outputs: string[] = []
    const byToken = await runCli(['push', dir], {
      KBSYNC_API_URL: server.apiUrl,
      KBSYNC_FILES_URL: server.filesUrl,
      KBSYNC_TOKEN: token
    })
    outputs.push(byToken.out, byToken.err)
    expect(byToken.code, byToken.err).toBe(0)
    await writeFile(path.join(dir, 'more.md'), '# More\n\nAnother page.\n')
    const byKey = await runCli(['push', dir, '--verbose'], {
      KBSYNC_API_URL: server.apiUrl,
      KBSYNC_FILES_URL: server.filesUrl,
      KBSYNC_LOGIN: 'bot@local',
      KBSYNC_SECURITY_KEY: securityKey
    })
    outputs.push(byKey.out, byKey.err)
    expect(byKey.code, byKey.err).toBe(0)
    // Errors too: a wrong token and a wrong key are reported without echoing them.
    const wrongToken = await runCli(['push', dir], {
      KBSYNC_API_URL: server.apiUrl,
      KBSYNC_FILES_URL: server.filesUrl,
      KBSYNC_TOKEN: `${token}-revoked`
    })
    const wrongKey = await runCli(['plan', dir, '--verbose'], {
      KBSYNC_API_URL: server.apiUrl,
      KBSYNC_FILES_URL: server.filesUrl,
      KBSYNC_LOGIN: 'bot@local',
      KBSYNC_SECURITY_KEY: `${securityKey}-old`
    })
    expect(wrongToken.code).not.toBe(0)
    expect(wrongKey.code).not.toBe(0)
    outputs.push(wrongToken.out, wrongToken.err, wrongKey.out, wrongKey.err)

    const everything = [...outputs, await allText(dir), JSON.stringify(server.requestLog())].join('\n')
    for (const secret of [token, securityKey, 'tok-SECRET', 'key-SECRET']) expect(everything).not.toContain(secret)

    const items = server.items()
    expect(JSON.stringify(items)).not.toContain(outsideMarker)
    expect(items.map((item) => item.title).sort()).toEqual(['Html', 'More'])
    // Only the two articles were written: no upload at all (nothing in the folder is an asset).
    expect(server.requestLog().filter((e) => e.endpoint === 'upload')).toEqual([])

    // Bodies are dialect text: a backslash-escaped `\<` is a literal character, never markup.
    const stored = items.find((item) => item.title === 'Html')!.body ?? ''
    // A link whose address runs a script is published as its text only (issue 28, finding 7).
    expect(stored).toContain('click')
    expect(stored).not.toMatch(/javascript:/i)
    const body = stored.replace(/\\</g, '&lt;')
    expect(body).not.toMatch(/<script/i)
    expect(body).not.toMatch(/<[a-z][^>]*\son[a-z]+\s*=/i)
    expect(body).not.toMatch(/<a\s[^>]*href\s*=\s*["']?\s*javascript:/i)
    expect(body).not.toMatch(/<img\s[^>]*src\s*=\s*["']?\s*javascript:/i)
  })
})
