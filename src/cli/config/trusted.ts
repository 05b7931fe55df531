/**
 * The trust checks of a loaded configuration, applied before any secret is
 * read: the repository config's paths stay inside its repository, its URLs
 * receive no credential unless the user trusts their origin, and the user
 * config lies outside the repository. The rules themselves are in
 * `src/trust/`; this file applies them to the config's keys and says how
 * to fix what they refuse.
 */
import {
  allowOriginHint,
  credentialOrigins,
  credentialUrlKeys,
  mayReceiveCredentials,
  platformOrigins,
  repositoryBoundary,
  repositoryHolding,
  staysInside
} from '../../trust/index.js'
import {ConfigError, type ConfigSource} from './errors.js'
import {keyDefinitions} from './keys.js'
import type {ConfigLayer} from './layers.js'

/**
 * Every path the repository config sets (`dir`, `siteRoot`, …) must stay
 * inside the repository that holds the file (its folder when it lies in no
 * repository), symbolic links followed; else a `ConfigError` naming the key.
 */
export async function checkRepositoryPaths(
  config: Record<string, unknown>,
  sources: Record<string, ConfigSource>,
  layer: ConfigLayer | undefined
): Promise<void> {
  if (layer === undefined) return
  const boundary = await repositoryBoundary(layer.dir)
  for (const definition of keyDefinitions) {
    if (definition.kind !== 'path' || sources[definition.key] !== 'file') continue
    const value = valueAt(config, definition.key)
    if (typeof value !== 'string' || (await staysInside(boundary, value))) continue
    const flags = definition.flag ? `--${definition.flag}${definition.key === 'dir' ? ', DIR' : ''} or ` : ''
    throw new ConfigError(
      `key "${definition.key}" names ${value}, outside the repository ${boundary} (symbolic links followed): a repository config may only name paths inside its repository; to use a folder outside it, name it with ${flags}${definition.env ?? 'the user config'}`,
      definition.key,
      layer.file
    )
  }
}

function valueAt(config: Record<string, unknown>, key: string): unknown {
  const [head, tail] = key.split('.') as [string, string | undefined]
  const value = config[head]
  return tail === undefined ? value : (value as Record<string, unknown> | undefined)?.[tail]
}

/** Where the user's trusted URLs come from: flags, the environment, the user config (never the repository). */
export interface TrustedSources {
  flags: Record<string, unknown> | undefined
  env: NodeJS.ProcessEnv
  user: ConfigLayer | undefined
}

/**
 * The origins credentials may go to besides the platform's: those of the
 * API, files and accounts URLs the user set (flags, environment, user
 * config: each source counts, a shadowed one too) and the `trustedOrigins`
 * allow-list (`allowed`, from the environment or the user config).
 */
export function userOrigins(from: TrustedSources, allowed: readonly string[]): string[] {
  const named: unknown[] = []
  for (const definition of keyDefinitions.filter((d) => credentialUrlKeys.includes(d.key))) {
    if (definition.flag) named.push(from.flags?.[definition.flag])
    if (definition.env) named.push(from.env[definition.env])
    named.push(from.user?.values.get(definition.key))
  }
  const strings = named.filter((v): v is string => typeof v === 'string')
  return [...credentialOrigins(strings, allowed)].filter((origin) => !platformOrigins.includes(origin))
}

/**
 * With credentials present, a URL the repository config sets (API, files,
 * accounts) must be on an origin credentials may go to; else a
 * `ConfigError` naming the key and how to allow it. Without credentials the
 * repository may point anywhere: nothing secret is sent.
 */
export function checkCredentialOrigins(
  config: Record<string, unknown>,
  sources: Record<string, ConfigSource>,
  origins: readonly string[],
  repositoryFile: string | undefined
): void {
  const allowed = credentialOrigins(origins)
  for (const key of credentialUrlKeys) {
    const value = config[key]
    if (sources[key] !== 'file' || typeof value !== 'string' || mayReceiveCredentials(value, allowed)) continue
    throw new ConfigError(
      `key "${key}" names ${new URL(value).origin}, an origin your credentials may not go to: a repository config may name it only for runs without credentials (KBSYNC_TOKEN, tokenFile, KBSYNC_LOGIN, KBSYNC_SECURITY_KEY). If you trust it, ${allowOriginHint}`,
      key,
      repositoryFile
    )
  }
}

/**
 * The user config must lie outside the repository of the working directory
 * and of the synced folder: a file there is the repository's data, which
 * anyone who can change the repository could change.
 */
export async function checkUserConfigOutside(user: ConfigLayer | undefined, folders: readonly string[]): Promise<void> {
  if (user === undefined) return
  const repository = await repositoryHolding(user.file, folders)
  if (repository === undefined) return
  throw new ConfigError(
    `the user config lies inside the repository ${repository}, so it is the repository's data and may not name programs, credential files or trusted origins: move it outside the repository (or point KBSYNC_USER_CONFIG at a file outside it)`,
    'KBSYNC_USER_CONFIG',
    user.file
  )
}
