/**
 * `loadConfig`: flags > environment (`KBSYNC_*`) > repository config > user
 * config > defaults, each value checked; programs, credentials and where
 * they go only from flags, the environment and the user config.
 */
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import type {ForeignDownloads} from '../../api/index.js'
import {ConfigError, type ConfigSource} from './errors.js'
import {coerce} from './coerce.js'
import {keyDefinitions, type KeyDefinition} from './keys.js'
import {repositoryLayer, userLayer, type ConfigLayer} from './layers.js'
import {checkCredentialOrigins, checkRepositoryPaths, checkUserConfigOutside, userOrigins} from './trusted.js'

/** The resolved configuration every command works with. */
export interface KbsyncConfig {
  /** Absolute path of the folder to sync. */
  dir: string
  /** Unset: the embedded local knowledge base. */
  apiUrl?: string
  filesUrl?: string
  /** A download from outside the API and files services; unset: the client's default (refuse). */
  foreignDownloads?: ForeignDownloads
  /** Where a login and security key log in; unset: the client's default. */
  accountsUrl?: string
  /** Origins credentials may also go to (`KBSYNC_TRUSTED_ORIGINS` or the user config). */
  trustedOrigins?: string[]
  /**
   * Every origin besides the platform's that credentials may go to: the
   * allow-list and the origins of the URLs the user set (flags, environment,
   * user config). The client accepts a login answer's addresses only there.
   */
  credentialOrigins: string[]
  /** `person_id` of the login, when several accounts share one login. */
  personId?: number
  /** `null`: the knowledge-base root. */
  rootTopic: string | null
  /** Absolute path of the token file, when one is named. */
  tokenFile?: string
  /** Secrets, from the environment or the token file only. Never print them (see `redactConfig`). */
  token?: string
  login?: string
  securityKey?: string
  concurrency: number
  /** Seconds the rate limit may hold a request before the call fails. */
  maxRateLimitWait: number
  prune: boolean
  /** What becomes of orphans; unset: `delete` with `prune`, else `keep` (`orphanModeOf` in session.ts). */
  onOrphan?: 'delete' | 'archive' | 'keep'
  /** The archive topic's title (`onOrphan: archive`). */
  archiveTopic?: string
  /** The notice at the top of each published article: `true` for the default text, or a text. */
  notice?: boolean | string
  /** Published items' editors set to the publishing account. */
  lock?: boolean
  maxDeletions: number
  /** More warnings than this fail a plan, push or watch run before any write; unset: no limit. */
  maxWarnings?: number
  ignore: string[]
  /** A link or image whose target does not exist: an error, or a warning that publishes its text. */
  brokenLinks: 'error' | 'warn'
  /** Whether the folder manages permissions; unset: where it declares some (`sync/shared/permissions-managed.ts`). */
  permissions?: 'manage' | 'ignore'
  /** A docs site's other locales: a root topic each, or not published. */
  locales: 'topics' | 'skip'
  /** Publish only this locale of a docs site, as the whole folder. */
  locale?: string
  /** Base URL of the repository's files: links to files outside the folder point there. */
  repoUrl?: string
  /** Absolute path of the folder root-relative links are served from. */
  siteRoot?: string
  /** The browser that renders Mermaid diagrams; unset: the usual install locations. */
  browser?: string
  /** The PlantUML program; unset: `plantuml` on PATH. */
  plantuml?: string
  /** The D2 program; unset: `d2` on PATH. */
  d2?: string
  articleUrl?: string
  watch: {debounceMs: number}
  preview: {port: number}
  /** `kbsync check-links` and `plan --check-links`; unset fields take the checker's defaults. */
  checkLinks: {
    warn?: boolean
    concurrency?: number
    perHost?: number
    timeoutMs?: number
    cacheHours?: number
    exclude?: string[]
  }
  /** The repository config used, when one was found (its values are data: see `src/trust/`). */
  configFile?: string
  /** The user-level config used, when there is one. */
  userConfigFile?: string
  /** Where each key's value came from. */
  sources: Record<string, ConfigSource>
}

/** Options of `loadConfig`. */
export interface LoadConfigOptions {
  cwd: string
  env: NodeJS.ProcessEnv
  /** Parsed command-line options (kebab-case names as `parseArgs` gives them); unknown ones are ignored. */
  flags?: Record<string, unknown>
  /** The folder given as the command's positional argument; wins over every other source of `dir`. */
  dir?: string
  /** Leaves the credentials out (no token file is read): for commands that never connect, such as `convert`. */
  withoutSecrets?: boolean
}

const defaults: Record<string, unknown> = {
  rootTopic: null,
  concurrency: 8,
  maxRateLimitWait: 660,
  prune: false,
  maxDeletions: 10,
  ignore: [],
  brokenLinks: 'error',
  locales: 'topics',
  'watch.debounceMs': 300,
  'preview.port': 4400
}

function setPath(target: Record<string, unknown>, key: string, value: unknown): void {
  const [head, tail] = key.split('.') as [string, string | undefined]
  if (tail === undefined) target[head] = value
  else (target[head] as Record<string, unknown>)[tail] = value
}

/** A value and where it came from; `layer` when a config file set it. */
interface Picked {
  value: unknown
  source: ConfigSource
  layer?: ConfigLayer
}

/** The value of `definition` from the highest source that sets it: flag, environment, then the files of `layers` in order. */
function pick(definition: KeyDefinition, options: LoadConfigOptions, layers: ConfigLayer[]): Picked | undefined {
  const flag = definition.flag ? options.flags?.[definition.flag] : undefined
  // Boolean flags only switch on: `--prune` absent must not override the file.
  if (flag !== undefined && !(definition.kind === 'boolean' && flag === false)) {
    return {value: coerce(definition, flag, {source: 'flag', name: definition.flag!}), source: 'flag'}
  }
  const env = definition.env ? options.env[definition.env] : undefined
  if (env !== undefined && env !== '')
    return {value: coerce(definition, env, {source: 'env', name: definition.env!}), source: 'env'}
  const layer = layers.find((l) => l.values.has(definition.key))
  if (layer === undefined) return undefined
  const origin = {source: 'file', name: definition.key, file: layer.file} as const
  return {value: coerce(definition, layer.values.get(definition.key), origin), source: layer.source, layer}
}

/** Reads the token from the named file (first line, trimmed); the error names the file, never its content. */
async function readTokenFile(file: string): Promise<string> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new ConfigError(
      `tokenFile ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      'tokenFile'
    )
  }
  const token = text.split(/\r?\n/)[0]!.trim()
  if (token === '') throw new ConfigError(`tokenFile ${file} is empty`, 'tokenFile')
  return token
}

/** Adds the login (the environment, else the user config) and the security key; nothing is read from a file yet. */
function addCredentialNames(config: Record<string, unknown>, env: NodeJS.ProcessEnv, user: ConfigLayer | undefined) {
  const fromUser = user?.values.get('login')
  if (fromUser !== undefined && typeof fromUser !== 'string')
    throw new ConfigError('key "login" must be a string', 'login', user!.file)
  const login = env.KBSYNC_LOGIN || fromUser
  if (login) config.login = login
  if (env.KBSYNC_SECURITY_KEY) config.securityKey = env.KBSYNC_SECURITY_KEY
  if (env.KBSYNC_TOKEN) config.token = env.KBSYNC_TOKEN
}

/** Whether the run carries a credential (or a token file to read one from). */
function hasCredentials(config: Record<string, unknown>): boolean {
  return ['token', 'login', 'securityKey', 'tokenFile'].some((key) => typeof config[key] === 'string')
}

/** Every key's value from flags, environment, the repository config, the user config and the defaults, and its source. */
function assemble(options: LoadConfigOptions, cwd: string, layers: ConfigLayer[]) {
  const config: Record<string, unknown> = {watch: {}, preview: {}, checkLinks: {}}
  const sources: Record<string, ConfigSource> = {}
  for (const definition of keyDefinitions) {
    const found = pick(definition, options, layers)
    let value = found ? found.value : defaults[definition.key]
    if (definition.kind === 'path' && typeof value === 'string') value = path.resolve(found?.layer?.dir ?? cwd, value)
    if (value !== undefined) setPath(config, definition.key, value)
    sources[definition.key] = found ? found.source : 'default'
  }
  return {config, sources}
}

/**
 * Loads the configuration: the user config, the repository config
 * (`kbsync.config.json` or `.kbsyncrc.json` at or above `cwd` inside its
 * repository, or `--config`/`KBSYNC_CONFIG`), then flags > environment >
 * repository config > user config > defaults. Relative paths in a file
 * resolve against the file's folder; from flags and the environment, against
 * `cwd`. The repository config may not name a program or a credential, its
 * paths stay inside its repository, and with credentials its URLs must be on
 * trusted origins (`src/trust/`). Throws a `ConfigError` naming the key (and
 * the file) on any invalid or refused value, before any secret is read.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<KbsyncConfig> {
  const cwd = path.resolve(options.cwd)
  const user = await userLayer(options.env)
  const repository = await repositoryLayer(cwd, options.flags?.config ?? options.env.KBSYNC_CONFIG, user)
  const layers = [repository, user].filter((layer): layer is ConfigLayer => layer !== undefined)
  const {config, sources} = assemble(options, cwd, layers)
  if (options.dir !== undefined) {
    config.dir = path.resolve(cwd, options.dir)
    sources.dir = 'flag'
  } else if (config.dir === undefined) {
    config.dir = repository ? repository.dir : cwd
  }
  await checkRepositoryPaths(config, sources, repository)
  await checkUserConfigOutside(user, [cwd, config.dir as string])
  const allowed = Array.isArray(config.trustedOrigins) ? (config.trustedOrigins as string[]) : []
  config.credentialOrigins = userOrigins({flags: options.flags, env: options.env, user}, allowed)
  if (!options.withoutSecrets) {
    addCredentialNames(config, options.env, user)
    if (hasCredentials(config))
      checkCredentialOrigins(config, sources, config.credentialOrigins as string[], repository?.file)
    if (!config.token && typeof config.tokenFile === 'string') config.token = await readTokenFile(config.tokenFile)
  }
  if (repository) config.configFile = repository.file
  if (user) config.userConfigFile = user.file
  config.sources = sources
  if (!isAssembled(config))
    throw new Error(
      `kbsync: the configuration was assembled without its folder or its sources (a bug; please report it)`
    )
  return config
}

/**
 * Whether an assembled configuration has the shape of `KbsyncConfig`: every
 * value was checked against its key's definition while it was set, so what
 * is left to see is that the fields every command reads are there.
 */
function isAssembled(config: object): config is KbsyncConfig {
  const fields: Record<string, unknown> = {...config}
  return (
    typeof fields.dir === 'string' &&
    typeof fields.sources === 'object' &&
    fields.sources !== null &&
    Array.isArray(fields.credentialOrigins) &&
    'rootTopic' in fields
  )
}
