/**
 * A secret of the user, kept outside every repository: the key that seals
 * what kbsync writes into `.kbsync/` and must later believe (the body
 * cache, the embedded server's record). A cloned repository can plant any
 * file in `.kbsync/`, but it cannot compute a seal without this key, so a
 * planted entry fails the check and is recomputed (or replaced) instead of
 * being trusted.
 *
 * The key lives in the user's cache folder, `$XDG_CACHE_HOME/kbsync/secret`
 * (else `~/.cache/kbsync/secret`): 32 random bytes, created on first use,
 * readable by the user alone. Losing it costs nothing but a cache rebuilt
 * once. Where no such folder can be written (a read-only home), the key is
 * this process's own: seals then hold within the run only, and callers that
 * need another process to check their seal are told (`persistent`).
 */
import {createHmac, randomBytes, timingSafeEqual} from 'node:crypto'
import {linkSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import path from 'node:path'

/** The user's cache folder for kbsync (pure): `$XDG_CACHE_HOME/kbsync`, else `~/.cache/kbsync`; undefined without a home. */
export function userCacheDir(env: NodeJS.ProcessEnv): string | undefined {
  const xdg = env.XDG_CACHE_HOME?.trim()
  // The XDG specification ignores a relative XDG_CACHE_HOME.
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'kbsync')
  const home = (env.HOME ?? env.USERPROFILE)?.trim()
  return home && path.isAbsolute(home) ? path.join(home, '.cache', 'kbsync') : undefined
}

/** The user's key, and whether other processes of the user share it. */
export interface UserSecret {
  key: Buffer
  /** False when the key could not be kept in the cache folder: it is this process's alone. */
  persistent: boolean
  /** Where it is kept, or why it could not be (for messages). */
  where: string
}

let cached: UserSecret | undefined

/** The user's key (read, or created once, from the cache folder of `env`; default `process.env`). */
export function userSecret(env: NodeJS.ProcessEnv = process.env): UserSecret {
  return (cached ??= loadSecret(env))
}

/** Forgets the key read (tests that change `XDG_CACHE_HOME` within one process). */
export function forgetUserSecret(): void {
  cached = undefined
}

function loadSecret(env: NodeJS.ProcessEnv): UserSecret {
  const dir = userCacheDir(env)
  if (dir === undefined) return ephemeral('no home folder or XDG_CACHE_HOME is set')
  const file = path.join(dir, 'secret')
  try {
    mkdirSync(dir, {recursive: true, mode: 0o700})
    const key = readKey(file) ?? createKey(file)
    return {key, persistent: true, where: file}
  } catch (error) {
    return ephemeral(`${file} cannot be kept (${(error as NodeJS.ErrnoException).code ?? String(error)})`)
  }
}

/** The key in `file`, or undefined when there is none (or one too short to be kbsync's). */
function readKey(file: string): Buffer | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8').trim()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  return /^[0-9a-f]{64}$/.test(text) ? Buffer.from(text, 'hex') : undefined
}

/** Writes a new key to `file` (a private temp file linked to its name: of two processes creating it at once, one wins and both use its key). */
function createKey(file: string): Buffer {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  writeFileSync(temp, randomBytes(32).toString('hex') + '\n', {mode: 0o600, flag: 'wx'})
  try {
    linkSync(temp, file)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'EEXIST') throw error
    // A malformed key left there (not kbsync's, or cut short): replaced by ours.
    if (readKey(file) === undefined) {
      rmSync(file, {force: true})
      linkSync(temp, file)
    }
  } finally {
    rmSync(temp, {force: true})
  }
  const key = readKey(file)
  if (key === undefined) throw Object.assign(new Error('the key file is malformed'), {code: 'EINVAL'})
  return key
}

function ephemeral(why: string): UserSecret {
  return {key: randomBytes(32), persistent: false, where: why}
}

/**
 * The seal of `data` for `purpose` (an HMAC-SHA256 with the user's key, hex):
 * the purpose keeps a seal made for one file from passing for another's.
 */
export function seal(purpose: string, data: string, secret: UserSecret = userSecret()): string {
  return sealParts(purpose, [data], secret)
}

/**
 * The seal of the text `parts` make one after the other (`seal` of them
 * joined), taken part by part: a cache of tens of megabytes is never one
 * string, nor one buffer.
 */
export function sealParts(purpose: string, parts: Iterable<string>, secret: UserSecret = userSecret()): string {
  const mac = createHmac('sha256', secret.key).update(purpose).update('\0')
  for (const part of parts) mac.update(part)
  return mac.digest('hex')
}

/** Whether `mac` is the seal of `data` for `purpose` (compared in constant time). */
export function isSealed(
  purpose: string,
  data: string | Iterable<string>,
  mac: unknown,
  secret: UserSecret = userSecret()
): boolean {
  if (typeof mac !== 'string' || !/^[0-9a-f]{64}$/.test(mac)) return false
  const parts = typeof data === 'string' ? [data] : data
  return timingSafeEqual(Buffer.from(sealParts(purpose, parts, secret), 'hex'), Buffer.from(mac, 'hex'))
}
