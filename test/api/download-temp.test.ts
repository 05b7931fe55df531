/**
 * The temporary file of a download is created exclusively beside the
 * destination: a symlink planted at its name is not written through, and no
 * temporary file outlives a failed download. The random part of the name is
 * pinned here so the test can plant something at it.
 */
import {lstat, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {KbClient} from '../../src/api/index.js'
import {tinyServer} from './tiny-server.js'

vi.mock('node:crypto', async (original) => ({
  ...(await original<typeof import('node:crypto')>()),
  randomBytes: (size: number) => Buffer.alloc(size, 0xab)
}))

const TOKEN = 'tok-TEMP-0123456789'
let dir = ''

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'kbsync-api-temp-'))
})
afterAll(async () => {
  await rm(dir, {recursive: true, force: true})
})

describe('the temporary file of a download', () => {
  it('is not written through a symlink planted at its name, which stays as it was', async () => {
    const server = await tinyServer((req, res) => void res.writeHead(200).end('attacker-chosen bytes'))
    const client = new KbClient({apiUrl: `${server.url}/v4`, token: TOKEN, retryBaseMs: 1, retries: 2})
    try {
      const victim = path.join(dir, 'victim.txt')
      await writeFile(victim, 'precious')
      const dest = path.join(dir, 'pic.png')
      const planted = path.join(dir, `.pic.png.${process.pid}.${'ab'.repeat(6)}.part`)
      await symlink(victim, planted)
      await expect(client.downloadFile(`${server.url}/services/kb?Id=g1`, dest)).rejects.toMatchObject({code: 'EEXIST'})
      expect(await readFile(victim, 'utf8')).toBe('precious')
      expect((await lstat(planted)).isSymbolicLink()).toBe(true)
      expect(await readlink(planted)).toBe(victim)
      expect(await readdir(dir)).not.toContain('pic.png')
      // It fails before any request is sent.
      expect(server.seen).toEqual([])
    } finally {
      await client.close()
      await server.close()
    }
  })

  it('is removed when every attempt is cut off', async () => {
    const server = await tinyServer((req, res) => {
      res.writeHead(200, {'content-length': '100'})
      res.write('half')
      return 'drop'
    })
    const client = new KbClient({apiUrl: `${server.url}/v4`, token: TOKEN, retryBaseMs: 1, retries: 2})
    try {
      const sub = await mkdtemp(path.join(dir, 'cut-'))
      await expect(
        client.downloadFile(`${server.url}/services/kb?Id=g1`, path.join(sub, 'cut.bin'))
      ).rejects.toMatchObject({retryable: true})
      // A connection cut without a whole answer is a dropped one: `retries` plus three shorter retries first.
      expect(server.seen).toHaveLength(2 + 3)
      expect(await readdir(sub)).toEqual([])
    } finally {
      await client.close()
      await server.close()
    }
  })
})
