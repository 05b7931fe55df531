/**
 * Issue 28, findings 4 and 5 (includes): what a repository names is
 * published only when it is a regular file of the repository that git does
 * not ignore and no dot-folder holds, and includes cost bounded work. Each
 * case runs the built CLI (`kbsync push`, a child process with a time-out,
 * so a hang fails the case instead of the suite) against the real local
 * server, then reads what the server holds.
 */
import {execFile, execFileSync} from 'node:child_process'
import {mkdir, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {builtCli} from '../built.js'
import {useLocalServer} from '../e2e/local-server.js'
import {bodyOf, flatten} from '../e2e/push-helpers.js'
import {temporaryFolders} from '../temp-folders.js'

const local = useLocalServer()
const folders = temporaryFolders('security-publish')
afterAll(() => folders.removeAll())

/** What `actions/checkout` leaves in `.git/config`: the credential the attack is after. */
const secret = 'c2VjcmV0LXRva2VuLWZyb20tY2hlY2tvdXQ='
const gitConfig = `[core]\n\trepositoryformatversion = 0\n[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${secret}\n`

/** A git repository holding `files` (by repository-relative path), with the credential in `.git/config`; the docs in `docs/`. */
async function repository(files: Record<string, string | Buffer>): Promise<string> {
  const repo = await folders.make()
  const all = {'.git/config': gitConfig, '.git/HEAD': 'ref: refs/heads/main\n', ...files}
  for (const [name, content] of Object.entries(all)) {
    await mkdir(path.dirname(path.join(repo, name)), {recursive: true})
    await writeFile(path.join(repo, name), content)
  }
  return repo
}

/** The outcome of one run of the built CLI; `code` null when it was killed at the time-out. */
interface Outcome {
  code: number | null
  out: string
  err: string
  seconds: number
}

/** Runs the built CLI in `cwd` against the server, killed after `timeoutMs`. */
function kbsync(argv: string[], cwd: string, timeoutMs = 60_000): Promise<Outcome> {
  const started = Date.now()
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [builtCli, ...argv],
      {cwd, env: {...process.env, ...local.env}, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1 << 26},
      (error, out, err) => {
        const code = error ? (error.killed ? null : Number(error.code ?? 1)) : 0
        resolve({code, out, err, seconds: (Date.now() - started) / 1000})
      }
    )
  })
}

/** `kbsync push docs` of `repo` under a fresh root topic; the outcome and the bodies the server then holds there. */
async function push(repo: string, title: string, extra: string[] = [], timeoutMs?: number) {
  const root = (await local.client.createItem({type: 'topic', title, parent_topic_id: null})).id
  local.server.resetLog()
  const outcome = await kbsync(['push', 'docs', '--root-topic', root, ...extra], repo, timeoutMs)
  const uploads = local.server.requestLog().filter((entry) => entry.path.endsWith('/files/upload')).length
  const bodies: Record<string, string> = {}
  for (const entry of flatten(await local.client.getTree(root)))
    bodies[entry.titlePath] = bodyOf(await local.client.getItem(entry.id))
  return {...outcome, bodies, uploads, all: outcome.out + outcome.err + JSON.stringify(bodies)}
}

function hasMkfifo(): boolean {
  try {
    execFileSync('mkfifo', ['--version'], {stdio: 'ignore'})
    return true
  } catch {
    return false
  }
}

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])

describe('secrets inside the repository are never published (finding 4)', {timeout: 120_000}, () => {
  it('refuses .git/config by include and by image: exit 2 with file:line, nothing written or uploaded', async () => {
    const repo = await repository({
      'docs/leak.md': '# Leak\n\nSee:\n\n```\n{{#include ../.git/config}}\n```\n',
      'docs/image.md': '# Image\n\n![c](../.git/config)\n\n![also](/.git/config)\n'
    })
    const run = await push(repo, 'Git config')
    expect(run.code).toBe(2)
    expect(run.err).toMatch(/leak\.md:6:\d+: error.*\.git\/config/)
    expect(run.err).toMatch(/image\.md:3:\d+: error.*\.git\/config/)
    expect(run.err).toMatch(/image\.md:5:\d+: error.*\.git\/config/)
    expect(run.all).not.toContain(secret)
    expect(run.bodies).toEqual({})
    expect(run.uploads).toBe(0)
  })

  it('refuses dot-files and what git ignores (.gitignore from the root down, .git/info/exclude), publishes what it tracks', async () => {
    const repo = await repository({
      '.gitignore': '*.secret\n/private/\n',
      '.git/info/exclude': 'excluded.txt\n',
      '.env': `TOKEN=${secret}\n`,
      'docs/.gitignore': '*.png\n!kept.png\n',
      'docs/kept.png': png,
      'docs/dropped.png': png,
      'docs/creds.secret': `${secret}\n`,
      'docs/excluded.txt': `${secret}\n`,
      'private/notes.txt': `${secret}\n`,
      'docs/env.md': '# Env\n\n{{#include ../.env}}\n',
      'docs/ignored.md':
        '# Ignored\n\n{{#include creds.secret}}\n\n{{#include excluded.txt}}\n\n{{#include ../private/notes.txt}}\n',
      'docs/images.md': '# Images\n\n![kept](kept.png)\n\n![dropped](dropped.png)\n'
    })
    const run = await push(repo, 'Ignored')
    expect(run.code).toBe(2)
    expect(run.err).toMatch(/env\.md:3:\d+: error.*\.env/)
    expect(run.err).toMatch(/ignored\.md:3:\d+: error.*ignored by git/)
    expect(run.err).toMatch(/ignored\.md:5:\d+: error.*ignored by git/)
    expect(run.err).toMatch(/ignored\.md:7:\d+: error.*ignored by git/)
    expect(run.err).toMatch(/images\.md:5:\d+: error.*dropped\.png/)
    expect(run.err).not.toMatch(/images\.md:3\b/)
    expect(run.all).not.toContain(secret)
    expect(run.bodies).toEqual({})
  })

  it('refuses a symbolic link out of the repository, by include and by image', async () => {
    const outside = await folders.make()
    await writeFile(path.join(outside, 'id_ed25519'), `${secret}\n`)
    const repo = await repository({
      'docs/linked.md': '# Linked\n\n{{#include listings/key.rs}}\n\n![k](listings/key.png)\n'
    })
    await mkdir(path.join(repo, 'docs/listings'))
    await symlink(path.join(outside, 'id_ed25519'), path.join(repo, 'docs/listings/key.rs'))
    await symlink(path.join(outside, 'id_ed25519'), path.join(repo, 'docs/listings/key.png'))
    const run = await push(repo, 'Linked out')
    expect(run.code).toBe(2)
    expect(run.err).toMatch(/linked\.md:3:\d+: error.*key\.rs/)
    expect(run.err).toMatch(/linked\.md:5:\d+: error.*key\.png/)
    expect(run.all).not.toContain(secret)
    expect(run.uploads).toBe(0)
  })

  it('publishes a tracked include, a linked file and an image of the repository as before', async () => {
    const repo = await repository({
      '.gitignore': 'build/\n',
      'listings/main.rs': 'fn main() {}\n',
      'docs/assets/logo.png': png,
      'docs/book.md': '# Book\n\n```rust\n{{#include ../listings/main.rs}}\n```\n\n![logo](assets/logo.png)\n'
    })
    const run = await push(repo, 'Tracked')
    expect(run.err).toBe('')
    expect(run.code).toBe(0)
    expect(run.bodies['Book']).toContain('fn main() {}')
    expect(run.uploads).toBe(1)
  })
})

describe('includes cost bounded work (finding 5)', {timeout: 120_000}, () => {
  /** Files `l0.md` … `l7.md` in `docs/parts/`, each including the next ten times (10^8 reads unbounded). */
  function fanOut(leaf: string): Record<string, string> {
    const files: Record<string, string> = {'docs/parts/l8.md': leaf}
    for (let level = 0; level < 8; level++)
      files[`docs/parts/l${level}.md`] = `{{#include l${level + 1}.md}}\n`.repeat(10)
    return files
  }

  it('stops an include fan-out bomb in seconds, with an error naming the file and line', async () => {
    const repo = await repository({
      ...fanOut('leaf\n'),
      'docs/bomb.md': '# Bomb\n\nText.\n\n{{#include parts/l0.md}}\n'
    })
    const run = await push(repo, 'Bomb', [], 60_000)
    expect(run.code).toBe(2)
    expect(run.seconds).toBeLessThan(30)
    expect(run.err).toMatch(/bomb\.md:5:\d+: error.*1000 include directives/)
    expect(run.bodies).toEqual({})
  })

  it('includes a 300 KB leaf under the budget; a fan-out of it is an error, not a crash', async () => {
    const line = 'let x = 1; // a listing line of forty bytes\n'
    const leaf = line.repeat(Math.ceil(300_000 / line.length))
    const repo = await repository({
      ...fanOut(leaf),
      'docs/big.md': '# Big\n\n```rust\n{{#include parts/l8.md}}\n```\n',
      'docs/many.md': '# Many\n\n{{#include parts/l5.md}}\n'
    })
    const run = await push(repo, 'Large leaf', [], 60_000)
    expect(run.code).toBe(2)
    expect(run.err).not.toMatch(/Invalid string length/)
    expect(run.err).toMatch(/many\.md:3:\d+: error.*8 MB of included files/)
    expect(run.err).not.toMatch(/big\.md/)
    const alone = await push(
      await repository({
        'docs/parts/leaf.rs': leaf,
        'docs/big.md': '# Big\n\n```rust\n{{#include parts/leaf.rs}}\n```\n'
      }),
      'Large leaf alone'
    )
    expect(alone.code).toBe(0)
    expect(alone.bodies['Big']!.length).toBeGreaterThan(300_000)
  })

  it.runIf(hasMkfifo())('refuses an include of a FIFO at once instead of waiting for a writer', async () => {
    const repo = await repository({'docs/pipe.md': '# Pipe\n\n{{#include parts/pipe.rs}}\n'})
    await mkdir(path.join(repo, 'docs/parts'))
    execFileSync('mkfifo', [path.join(repo, 'docs/parts/pipe.rs')])
    const run = await push(repo, 'FIFO', [], 30_000)
    expect(run.code).toBe(2)
    expect(run.err).toMatch(/pipe\.md:3:\d+: error.*FIFO/)
  })

  it.runIf(hasMkfifo())('refuses a FIFO as .kbsyncignore or mkdocs.yml at once', async () => {
    for (const fifo of ['docs/.kbsyncignore', 'mkdocs.yml']) {
      const repo = await repository({'docs/page.md': '# Page\n\nText.\n'})
      execFileSync('mkfifo', [path.join(repo, fifo)])
      const run = await kbsync(['plan', 'docs'], repo, 30_000)
      expect(run.code, fifo).not.toBeNull()
      expect(run.code, fifo).not.toBe(0)
      expect(run.err).toMatch(/FIFO/)
    }
  })

  it('reads a long line of unclosed directives in linear time', async () => {
    const repo = await repository({'docs/line.md': `# Line\n\n${'{{#a '.repeat(200_000)}\n`})
    const run = await kbsync(['plan', 'docs', '--broken-links=warn'], repo, 30_000)
    expect(run.code).not.toBeNull()
    expect(run.seconds).toBeLessThan(20)
  })
})
