/**
 * Issue 28, finding 6: the link checker is no network weapon. End to end
 * through the built CLI: a cloned repository whose documents link to this
 * machine (loopback in every spelling, `localhost` names, the unspecified
 * address), to the cloud metadata service or to private networks makes
 * `kbsync check-links` and `plan --check-links` send nothing there (a
 * recording server counts every request) and say "not checked: private
 * address" at each file:line, a warning grouped under one rule; with
 * --allow-private loopback is checked, link-local never, not even after a
 * redirect. Hanging links do not serialise, and the time budget ends a run
 * with the count of what it left.
 */
import {execFile} from 'node:child_process'
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import {promisify} from 'node:util'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtCli} from '../built.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'

const folders = temporaryFolders('link-checker')
const servers: http.Server[] = []

/** A server counting every request; `hang` never answers. Dual-stack (`::`) when the machine has IPv6, so [::1] would reach it too. */
async function recordingServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.writeHead(200).end()
): Promise<{port: number; requests: string[]}> {
  const requests: string[] = []
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`)
    handler(req, res)
  })
  servers.push(server)
  await new Promise<void>((resolve) => {
    server.once('error', () => server.listen(0, '127.0.0.1', resolve))
    server.listen({port: 0, host: '::', ipv6Only: false}, resolve)
  })
  return {port: (server.address() as AddressInfo).port, requests}
}

const hang = () => undefined

afterAll(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
  await folders.removeAll()
})

/** Runs the built CLI; resolves with its exit code, output and how long it took (never rejects on a non-zero exit). */
async function kbsync(args: string[]): Promise<{code: number; out: string; err: string; ms: number}> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('KBSYNC_') && !name.startsWith('GITHUB_'))
  )
  const started = Date.now()
  try {
    const {stdout, stderr} = await promisify(execFile)(process.execPath, [builtCli, ...args], {
      env: {...clean, NO_COLOR: '1'}
    })
    return {code: 0, out: stdout, err: stderr, ms: Date.now() - started}
  } catch (error) {
    const failed = error as {code: number; stdout: string; stderr: string}
    return {code: failed.code, out: failed.stdout, err: failed.stderr, ms: Date.now() - started}
  }
}

/** A folder with one document `doc.md`: a title, then each of `urls` as a link on its own line (line 3, 4, …). */
async function folderLinking(urls: readonly string[]): Promise<string> {
  const dir = await folders.make()
  await writeFiles(dir, {'doc.md': `# Doc\n\n${urls.map((url, i) => `[link ${i}](${url})`).join('\n')}\n`})
  return dir
}

/** Every spelling of this machine and of the networks near it a repository might use. */
function localUrls(port: number): string[] {
  return [
    `http://127.0.0.1:${port}/dotted`,
    `http://2130706433:${port}/decimal`,
    `http://0x7f000001:${port}/hex`,
    `http://0177.0.0.1:${port}/octal`,
    `http://127.1:${port}/short`,
    `http://[::1]:${port}/ipv6-loopback`,
    `http://[::ffff:127.0.0.1]:${port}/ipv4-mapped`,
    `http://localhost:${port}/localhost`,
    `http://LOCALHOST.:${port}/localhost-dot`,
    `http://admin.localhost:${port}/sub-localhost`,
    `http://0.0.0.0:${port}/unspecified`,
    `http://[::]:${port}/ipv6-unspecified`,
    'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    'http://[::ffff:169.254.169.254]/latest/meta-data/',
    'http://100.100.100.200/latest/meta-data/',
    'http://10.0.0.1/admin',
    'http://192.168.1.1/',
    'http://[fd00::1]/'
  ]
}

describe('kbsync check-links refuses private addresses', () => {
  let site: {port: number; requests: string[]}
  beforeAll(async () => {
    site = await recordingServer()
  })

  it('sends nothing to loopback (every numeric form, IPv6, mapped, localhost names), unspecified, metadata or private networks; says so at each file:line', async () => {
    const urls = localUrls(site.port)
    const dir = await folderLinking(urls)
    const run = await kbsync(['check-links', dir, '--no-cache', '--verbose', '--link-timeout', '2000'])
    expect(site.requests).toEqual([])
    // Not broken, not an error: a warning each, exit 0.
    expect(run.code).toBe(0)
    urls.forEach((url, i) => {
      expect(run.err).toContain(`doc.md:${3 + i}:1: warning: Link \`${url}\` was not checked: private address`)
    })
    expect(run.err).toContain('(127.0.0.1, loopback)')
    expect(run.err).toContain('(169.254.169.254, link-local)')
    expect(run.err).not.toContain('error')
    expect(run.out).toContain(
      `Checked ${urls.length} external URLs (${urls.length} uses): ${urls.length} not checked (${urls.length} private addresses).`
    )

    // Without --verbose: one grouped message with the count, naming places.
    const grouped = await kbsync(['check-links', dir, '--no-cache'])
    expect(grouped.err).toMatch(
      new RegExp(
        `warning \\[link-private-address\\] ×${urls.length}: e\\.g\\. Link .* was not checked: private address .*--allow-private.*\\(doc\\.md:3, doc\\.md:4, doc\\.md:5 and ${urls.length - 3} more in 1 file\\)`
      )
    )
    expect(site.requests).toEqual([])
  }, 120_000)

  it('plan --check-links refuses them too', async () => {
    const dir = await folderLinking([`http://2130706433:${site.port}/plan`, 'http://169.254.169.254/'])
    const run = await kbsync(['plan', dir, '--check-links', '--no-cache'])
    expect(run.code).toBe(0)
    expect(site.requests).toEqual([])
    // Two warnings in one file: grouped under their rule, with the places.
    expect(run.err).toContain(
      `warning [link-private-address] ×2: e.g. Link \`http://2130706433:${site.port}/plan\` was not checked: private address (127.0.0.1, loopback)`
    )
    expect(run.err).toContain('(doc.md:3, doc.md:4)')
    expect(run.out).toContain('2 not checked (2 private addresses)')
  }, 120_000)

  it('--allow-private checks loopback (intranet docs), never link-local: not even after a redirect from a checked page', async () => {
    const redirecting = await recordingServer((req, res) => {
      const to: Record<string, string> = {
        '/to-metadata': 'http://169.254.169.254/latest/meta-data/',
        '/to-mapped-metadata': 'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
        '/to-ok': `http://127.0.0.1:${site.port}/after-redirect`
      }
      const location = to[req.url ?? '']
      if (location) res.writeHead(302, {location}).end()
      else res.writeHead(200).end()
    })
    const base = `http://127.0.0.1:${redirecting.port}`
    const dir = await folderLinking([
      `http://127.0.0.1:${site.port}/dotted`,
      `http://0x7f000001:${site.port}/hex`,
      `http://localhost:${site.port}/localhost`,
      `${base}/to-metadata`,
      `${base}/to-mapped-metadata`,
      `${base}/to-ok`,
      'http://169.254.169.254/latest/meta-data/'
    ])
    const run = await kbsync([
      'check-links',
      dir,
      '--no-cache',
      '--allow-private',
      '--link-timeout',
      '2000',
      '--verbose'
    ])
    expect(run.code).toBe(0)
    expect([...site.requests].sort()).toEqual(['HEAD /after-redirect', 'HEAD /dotted', 'HEAD /hex', 'HEAD /localhost'])
    // The redirecting page was asked; the metadata service never was.
    expect(redirecting.requests).toEqual(expect.arrayContaining(['HEAD /to-metadata', 'HEAD /to-mapped-metadata']))
    expect(run.err).toContain(
      `doc.md:6:1: warning: Link \`${base}/to-metadata\` was not checked: redirected to \`http://169.254.169.254/latest/meta-data/\`: private address (169.254.169.254, link-local)`
    )
    expect(run.err).toContain(`doc.md:7:1: warning: Link \`${base}/to-mapped-metadata\` was not checked: redirected to`)
    expect(run.err).toContain('doc.md:9:1: warning: Link `http://169.254.169.254/latest/meta-data/` was not checked')
    expect(run.out).toContain('Checked 7 external URLs (7 uses): 3 not checked (3 private addresses).')
  }, 120_000)
})

describe('kbsync check-links ends in bounded time', () => {
  it('40 hanging links of one host at a 1 s time-out take a second or two, not a minute (time-outs were retried, two at a time)', async () => {
    const hanging = await recordingServer(hang)
    const dir = await folderLinking(Array.from({length: 40}, (_, i) => `http://127.0.0.1:${hanging.port}/hang/${i}`))
    // The CLI's own start-up, on this machine now, so that the bound is about the check.
    const baseline = await kbsync(['check-links', await folderLinking([]), '--no-cache'])
    const run = await kbsync(['check-links', dir, '--no-cache', '--allow-private', '--link-timeout', '1000'])
    expect(run.code).toBe(2)
    expect(run.ms - baseline.ms).toBeLessThan(6_000)
    // The first time-outs are broken links; then the host is not asked again: a handful of requests, not 120.
    expect(hanging.requests.length).toBeLessThanOrEqual(4)
    expect(run.err).toContain('is broken: timed out after 1 s')
    expect(run.err).toMatch(
      /warning \[link-unchecked\] ×3\d: e\.g\. Link .* was not checked: 127\.0\.0\.1:\d+ did not answer 2 requests in a row within 1 s/
    )
    expect(run.out).toMatch(/Checked 40 external URLs \(40 uses\): \d broken, 3\d not checked\./)
  }, 120_000)

  it('--link-budget ends the run when it is spent, with one warning counting what was left', async () => {
    const hosts = await Promise.all(Array.from({length: 12}, () => recordingServer(hang)))
    const dir = await folderLinking(hosts.map((host, i) => `http://127.0.0.1:${host.port}/slow/${i}`))
    const baseline = await kbsync(['check-links', await folderLinking([]), '--no-cache'])
    const run = await kbsync([
      'check-links',
      dir,
      '--no-cache',
      '--allow-private',
      '--link-timeout',
      '60000',
      '--link-budget',
      '2'
    ])
    expect(run.code).toBe(0)
    expect(run.ms - baseline.ms).toBeLessThan(6_000)
    expect(run.err).toContain(
      "warning: The link check's time budget of 2 s was spent: 12 URLs (12 uses) not checked (Give it more time with --link-budget SECONDS"
    )
    expect(run.out).toContain('Checked 12 external URLs (12 uses): 12 not checked (12 over the time budget).')

    const wrong = await kbsync(['check-links', dir, '--link-budget', '2m'])
    expect(wrong.code).toBe(2)
    expect(wrong.err).toContain("--link-budget must be a whole number of seconds from 1 to 86400, not '2m'")
  }, 120_000)
})
