/**
 * `kbsync check-links` and `plan --check-links` end to end: the built CLI
 * spawned against a folder whose documents link to a local HTTP server.
 * Exit codes (0, 2, 0 with --warn), file:line in the output, --json, the
 * config's exclude list, GitHub annotations, and the cache a second run
 * reads instead of requesting. The site is on 127.0.0.1, so every run passes
 * --allow-private (test/security/link-checker.test.ts holds the refusals).
 */
import {execFile} from 'node:child_process'
import {existsSync} from 'node:fs'
import {writeFile} from 'node:fs/promises'
import path from 'node:path'
import {promisify} from 'node:util'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtCli} from '../built.js'
import type {Tiny} from '../api/tiny-server.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'
import {linkSite} from './sites.js'

const folders = temporaryFolders('links-cli')
let server: Tiny
beforeAll(async () => {
  server = await linkSite()
})
afterAll(async () => {
  await server.close()
  await folders.removeAll()
})

/** Runs the built CLI; resolves with its exit code and output (never rejects on a non-zero exit). */
async function kbsync(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  cwd?: string
): Promise<{code: number; out: string; err: string}> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('KBSYNC_') && !name.startsWith('GITHUB_'))
  )
  try {
    const {stdout, stderr} = await promisify(execFile)(process.execPath, [builtCli, ...args], {
      env: {...clean, NO_COLOR: '1', ...env},
      ...(cwd ? {cwd} : {})
    })
    return {code: 0, out: stdout, err: stderr}
  } catch (error) {
    const failed = error as {code: number; stdout: string; stderr: string}
    return {code: failed.code, out: failed.stdout, err: failed.stderr}
  }
}

/** A folder with one article linking to an OK page, a missing one and an anchor the page lacks. */
async function folder(): Promise<string> {
  const dir = await folders.make()
  await writeFiles(dir, {
    'guide.md': `# Guide\n\nRead [the page](${server.url}/page#install) first.\n\nThen [this](${server.url}/missing) and ![a chart](${server.url}/ok/chart.png).\n\n[Anchor](${server.url}/page#nowhere) and [mail](mailto:a@example.com).\n`
  })
  return dir
}

describe('kbsync check-links', () => {
  it('exits 2 naming each broken link and missing anchor at file:line; the second run reads the cache', async () => {
    const dir = await folder()
    const first = await kbsync(['check-links', dir, '--allow-private'])
    expect(first.code).toBe(2)
    expect(first.err).toContain(`guide.md:5:6: error: Link \`${server.url}/missing\` is broken: 404 Not Found`)
    expect(first.err).toContain(
      `guide.md:7:1: error: Link \`${server.url}/page#nowhere\`: the page has no anchor \`#nowhere\``
    )
    expect(first.out).toContain('Checked 3 external URLs (4 uses): 1 broken, 1 missing an anchor.')
    expect(existsSync(path.join(dir, '.kbsync/link-cache.json'))).toBe(true)

    const seen = server.seen.length
    const second = await kbsync(['check-links', dir, '--allow-private'])
    expect(second.code).toBe(2)
    // The OK image is cached; the broken link and the page with a missing anchor are checked again.
    expect(
      server.seen
        .slice(seen)
        .map((s) => s.url)
        .sort()
    ).toEqual(['/missing', '/page'])
    expect(second.out).toContain('1 from the cache')
  })

  it('--warn reports the same as warnings and exits 0; --json is one document on stdout', async () => {
    const dir = await folder()
    const warned = await kbsync(['check-links', dir, '--warn', '--no-cache', '--verbose', '--allow-private'])
    expect(warned.code).toBe(0)
    expect(warned.err).toContain(`guide.md:5:6: warning: Link \`${server.url}/missing\` is broken`)
    // --verbose says what each URL answered.
    expect(warned.err).toContain(`${server.url}/ok/chart.png: OK (200)`)
    const json = await kbsync(['check-links', dir, '--json', '--no-cache', '--allow-private'])
    expect(json.code).toBe(2)
    const result = JSON.parse(json.out)
    expect(result.counts).toMatchObject({urls: 3, uses: 4, broken: 1, anchorsMissing: 1})
    expect(result.diagnosticCounts).toMatchObject({errors: 2})
    expect(result.links.find((l: {url: string}) => l.url.endsWith('/missing')).uses).toEqual([
      expect.objectContaining({file: 'guide.md', line: 5})
    ])
  })

  it('the config excludes URLs and sets --warn; GitHub Actions gets annotations', async () => {
    const dir = await folder()
    await writeFile(
      path.join(dir, 'kbsync.config.json'),
      JSON.stringify({checkLinks: {exclude: [`${server.url}/miss*`]}})
    )
    // The config file is found from the working folder, as for every command.
    const excluded = await kbsync(
      ['check-links', '--no-cache', '--allow-private'],
      {GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir},
      dir
    )
    expect(excluded.code).toBe(2)
    expect(excluded.err).not.toContain('/missing')
    expect(excluded.out).toContain('::error file=guide.md,line=7')
    const warned = await kbsync(
      ['check-links', '--no-cache', '--allow-private'],
      {KBSYNC_CHECK_LINKS_WARN: 'true'},
      dir
    )
    expect(warned.code).toBe(0)
  }, 120_000)
})

describe('kbsync plan --check-links', () => {
  it('plans and checks links: exit 2 when one is broken, 0 with --warn, and without the option no request', async () => {
    const dir = await folder()
    const seen = server.seen.length
    const plain = await kbsync(['plan', dir])
    expect(plain.code).toBe(0)
    expect(server.seen.length).toBe(seen)
    const checked = await kbsync(['plan', dir, '--check-links', '--no-cache', '--allow-private'])
    expect(checked.code).toBe(2)
    expect(checked.err).toContain(`guide.md:5:6: error: Link \`${server.url}/missing\` is broken`)
    expect(checked.out).toContain('Plan: 1 create.')
    const warned = await kbsync(['plan', dir, '--check-links', '--warn', '--json', '--allow-private'])
    expect(warned.code).toBe(0)
    expect(JSON.parse(warned.out).linkCheck.counts).toMatchObject({broken: 1})
  }, 120_000)
})
