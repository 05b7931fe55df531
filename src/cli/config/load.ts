/**
 * `loadConfig`: flags > environment (`KBSYNC_*`) > config file > defaults,
 * each value checked, secrets only from the environment or a token file.
 */
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import type {ForeignDownloads} from '../../api/index.js'
import {ConfigError, type ConfigSource} from './errors.js'
import {findConfigFile, readConfigFile} from './find.js'
import {coerce} from './coerce.js'
import {forbiddenFileKeys, keyDefinitions, type KeyDefinition} from './keys.js'

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
  maxDeletions: number
  /** More warnings than this fail a plan, push or watch run before any write; unset: no limit. */
  maxWarnings?: number
  ignore: string[]
  /** A link or image whose target does not exist: an error, or a warning that publishes its text. */
  brokenLinks: 'error' | 'warn'
  /** Base URL of the repository's files: links to files outside the folder point there. */
  repoUrl?: string
  /** Absolute path of the folder root-relative links are served from. */
  siteRoot?: string
  /** The browser that renders Mermaid diagrams; unset: the usual install locations. */
  browser?: string
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
  /** The config file used, when one was found. */
  configFile?: string
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
  'watch.debounceMs': 300,
  'preview.port': 4400
}

const allowedFileKeys = new Set(['$schema', '$comment', 'login', ...keyDefinitions.map((d) => d.key.split('.')[0]!)])

/** Flattens `{watch: {debounceMs: 1}}` into `watch.debounceMs`, checking the nested objects and unknown keys. */
function flattenFile(data: Record<string, unknown>, file: string): Map<string, unknown> {
  const out = new Map<string, unknown>()
  for (const [key, value] of Object.entries(data)) {
    if (key in forbiddenFileKeys)
      throw new ConfigError(`key "${key}" is not allowed in a config file: ${forbiddenFileKeys[key]}`, key, file)
    if (!allowedFileKeys.has(key))
      throw new ConfigError(
        `unknown key "${key}" (known: ${[...allowedFileKeys].filter((k) => !k.startsWith('$')).join(', ')})`,
        key,
        file
      )
    if (key.startsWith('$')) continue
    const nested = keyDefinitions.filter((d) => d.key.startsWith(key + '.'))
    if (nested.length === 0) {
      out.set(key, value)
      continue
    }
    if (!value || typeof value !== 'object' || Array.isArray(value))
      throw new ConfigError(`key "${key}" must be an object`, key, file)
    for (const [sub, subValue] of Object.entries(value)) {
      const full = `${key}.${sub}`
      if (!nested.some((d) => d.key === full))
        throw new ConfigError(`unknown key "${full}" (known: ${nested.map((d) => d.key).join(', ')})`, full, file)
      out.set(full, subValue)
    }
  }
  return out
}

function setPath(target: Record<string, unknown>, key: string, value: unknown): void {
  const [head, tail] = key.split('.') as [string, string | undefined]
  if (tail === undefined) target[head] = value
  else (target[head] as Record<string, unknown>)[tail] = value
}

/** The value of `definition` from the highest source that sets it. */
function pick(
  definition: KeyDefinition,
  options: LoadConfigOptions,
  file: Map<string, unknown>,
  fileName: string | undefined
): {value: unknown; source: ConfigSource} | undefined {
  const flag = definition.flag ? options.flags?.[definition.flag] : undefined
  // Boolean flags only switch on: `--prune` absent must not override the file.
  if (flag !== undefined && !(definition.kind === 'boolean' && flag === false)) {
    return {value: coerce(definition, flag, {source: 'flag', name: definition.flag!}), source: 'flag'}
  }
  const env = definition.env ? options.env[definition.env] : undefined
  if (env !== undefined && env !== '')
    return {value: coerce(definition, env, {source: 'env', name: definition.env!}), source: 'env'}
  if (file.has(definition.key)) {
    return {
      value: coerce(definition, file.get(definition.key), {
        source: 'file',
        name: definition.key,
        ...(fileName ? {file: fileName} : {})
      }),
      source: 'file'
    }
  }
  return undefined
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

/** Adds login, security key and token (KBSYNC_TOKEN wins over a token file: the environment is the more specific source in CI). */
async function addSecrets(
  config: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  file: Map<string, unknown>,
  configFile: string | undefined
): Promise<void> {
  const login = env.KBSYNC_LOGIN || (typeof file.get('login') === 'string' ? (file.get('login') as string) : undefined)
  if (file.has('login') && typeof file.get('login') !== 'string')
    throw new ConfigError('key "login" must be a string', 'login', configFile)
  if (login) config.login = login
  if (env.KBSYNC_SECURITY_KEY) config.securityKey = env.KBSYNC_SECURITY_KEY
  if (env.KBSYNC_TOKEN) config.token = env.KBSYNC_TOKEN
  else if (typeof config.tokenFile === 'string') config.token = await readTokenFile(config.tokenFile)
}

/**
 * Loads the configuration: finds `kbsync.config.json` or `.kbsyncrc.json`
 * walking up from `cwd` (or takes `--config`/`KBSYNC_CONFIG`), then applies
 * flags > environment > file > defaults. Relative paths in the file resolve
 * against the file's folder; from flags and the environment, against `cwd`.
 * Throws a `ConfigError` naming the key (and the file) on any invalid value.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<KbsyncConfig> {
  const cwd = path.resolve(options.cwd)
  const explicit = options.flags?.config ?? options.env.KBSYNC_CONFIG
  if (explicit !== undefined && (typeof explicit !== 'string' || explicit === ''))
    throw new ConfigError('--config must name a file', 'config')
  const configFile = typeof explicit === 'string' ? path.resolve(cwd, explicit) : await findConfigFile(cwd)
  const file = configFile ? flattenFile(await readConfigFile(configFile), configFile) : new Map<string, unknown>()
  const fileDir = configFile ? path.dirname(configFile) : cwd

  const config: Record<string, unknown> = {watch: {}, preview: {}, checkLinks: {}}
  const sources: Record<string, ConfigSource> = {}
  for (const definition of keyDefinitions) {
    const found = pick(definition, options, file, configFile)
    let value = found ? found.value : defaults[definition.key]
    if (definition.kind === 'path' && typeof value === 'string')
      value = path.resolve(found?.source === 'file' ? fileDir : cwd, value)
    if (value !== undefined) setPath(config, definition.key, value)
    sources[definition.key] = found ? found.source : 'default'
  }
  if (options.dir !== undefined) {
    config.dir = path.resolve(cwd, options.dir)
    sources.dir = 'flag'
  } else if (config.dir === undefined) {
    config.dir = configFile ? fileDir : cwd
  }
  if (!options.withoutSecrets) await addSecrets(config, options.env, file, configFile)
  if (configFile) config.configFile = configFile
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
    'rootTopic' in fields
  )
}
