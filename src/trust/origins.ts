/**
 * Where a credential may go (pure). A token, a login or a security key is
 * bound to origins, as npm binds a token to its registry: it is sent only
 * to the platform's own hosts and to the origins the user named (the command
 * line, the environment, the user-level config), never to one a cloned
 * repository names. An origin is compared whole (scheme, host, port, as the
 * WHATWG URL parser normalises them: default ports dropped, host
 * lower-cased), so `http://localhost:1` and `http://127.0.0.1:1` differ and
 * `https://api.pyrus.com.evil.example` is not the platform.
 */
import {DEFAULT_ACCOUNTS_URL, DEFAULT_API_URL, DEFAULT_FILES_URL} from '../api/options.js'

/**
 * The origin of an http(s) URL (`https://kb.example.com:8443`), or
 * undefined when `url` is no http(s) URL. A bare origin is a URL too.
 */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url.trim())
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined
    return parsed.origin
  } catch {
    return undefined
  }
}

/**
 * The origin `text` names when it is a bare origin (`https://kb.example.com`,
 * `http://127.0.0.1:8080/`: scheme, host and port, nothing else), else
 * undefined: an allow-list entry with a path would suggest a narrower trust
 * than the one it gives.
 */
export function parseOrigin(text: string): string | undefined {
  try {
    const url = new URL(text.trim())
    const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password
    return bare ? originOf(text) : undefined
  } catch {
    return undefined
  }
}

/**
 * The platform's own hosts (the client's defaults: accounts, API, files):
 * a credential may always go there, whoever named them, since it is theirs.
 */
export const platformOrigins: readonly string[] = [DEFAULT_ACCOUNTS_URL, DEFAULT_API_URL, DEFAULT_FILES_URL].map(
  (url) => originOf(url)!
)

/**
 * The origins credentials may go to: the platform's, those of `named` (URLs
 * the user chose: flags, environment, user config, or a library caller's
 * options) and the `allowed` list (`trustedOrigins`). Unparsable entries add
 * nothing: they are checked where they are read.
 */
export function credentialOrigins(
  named: Iterable<string | undefined>,
  allowed: Iterable<string> = []
): ReadonlySet<string> {
  const origins = new Set(platformOrigins)
  for (const url of [...named, ...allowed]) {
    const origin = url === undefined ? undefined : originOf(url)
    if (origin !== undefined) origins.add(origin)
  }
  return origins
}

/** Whether a credential may be sent to `url`: its origin is one of `origins`. */
export function mayReceiveCredentials(url: string, origins: ReadonlySet<string>): boolean {
  const origin = originOf(url)
  return origin !== undefined && origins.has(origin)
}

/** How a user allows an origin, for messages (one sentence, no value of a secret). */
export const allowOriginHint =
  'set it in the environment (KBSYNC_API_URL, KBSYNC_FILES_URL, KBSYNC_ACCOUNTS_URL), on the command line or in your user config (~/.config/kbsync/config.json, or the file KBSYNC_USER_CONFIG names), or add its origin to KBSYNC_TRUSTED_ORIGINS or "trustedOrigins" in your user config'
