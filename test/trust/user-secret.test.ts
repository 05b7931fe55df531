/**
 * The user's key (`src/trust/user-secret.ts`) in process: where it is kept,
 * that it persists and is shared, that a malformed one is replaced, and what
 * a seal proves.
 */
import {readFileSync, statSync, writeFileSync} from 'node:fs'
import {mkdir} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {forgetUserSecret, isSealed, seal, userCacheDir, userSecret} from '../../src/trust/user-secret.js'
import {temporaryFolders} from '../temp-folders.js'

const folders = temporaryFolders('user-secret')
afterAll(() => folders.removeAll())
afterEach(() => forgetUserSecret())

describe('userCacheDir', () => {
  it('is $XDG_CACHE_HOME/kbsync when absolute, else ~/.cache/kbsync, else none', () => {
    expect(userCacheDir({XDG_CACHE_HOME: '/c', HOME: '/h'})).toBe(path.join('/c', 'kbsync'))
    expect(userCacheDir({XDG_CACHE_HOME: 'relative', HOME: '/h'})).toBe(path.join('/h', '.cache', 'kbsync'))
    expect(userCacheDir({USERPROFILE: '/u'})).toBe(path.join('/u', '.cache', 'kbsync'))
    expect(userCacheDir({HOME: 'relative'})).toBeUndefined()
    expect(userCacheDir({})).toBeUndefined()
  })
})

describe('userSecret', () => {
  it('is created once, private, and read back by the next process', async () => {
    const cache = await folders.make()
    const first = userSecret({XDG_CACHE_HOME: cache})
    expect(first.persistent).toBe(true)
    expect(first.where).toBe(path.join(cache, 'kbsync', 'secret'))
    expect(statSync(first.where).mode & 0o777).toBe(0o600)
    forgetUserSecret()
    expect(userSecret({XDG_CACHE_HOME: cache}).key.equals(first.key)).toBe(true)
  })

  it('replaces a malformed key file', async () => {
    const cache = await folders.make()
    await mkdir(path.join(cache, 'kbsync'), {recursive: true})
    writeFileSync(path.join(cache, 'kbsync', 'secret'), 'not a key\n')
    const secret = userSecret({XDG_CACHE_HOME: cache})
    expect(readFileSync(secret.where, 'utf8').trim()).toBe(secret.key.toString('hex'))
  })

  it("is the process's own when it cannot be kept", async () => {
    expect(userSecret({}).persistent).toBe(false)
    forgetUserSecret()
    const file = path.join(await folders.make(), 'a-file')
    writeFileSync(file, '')
    const secret = userSecret({XDG_CACHE_HOME: file})
    expect(secret.persistent).toBe(false)
    expect(secret.where).toContain('cannot be kept')
  })
})

describe('seal', () => {
  it('proves the purpose, the data and the key', async () => {
    const secret = userSecret({XDG_CACHE_HOME: await folders.make()})
    const mac = seal('record', 'data', secret)
    expect(isSealed('record', 'data', mac, secret)).toBe(true)
    expect(isSealed('cache', 'data', mac, secret)).toBe(false)
    expect(isSealed('record', 'other', mac, secret)).toBe(false)
    expect(isSealed('record', 'data', mac, {...secret, key: Buffer.alloc(32)})).toBe(false)
    expect(isSealed('record', 'data', 42, secret)).toBe(false)
    expect(isSealed('record', 'data', 'short', secret)).toBe(false)
  })
})
