/**
 * The two config files a run may read, as layers of values: the repository
 * config (`kbsync.config.json` or `.kbsyncrc.json` found from the working
 * directory, or named by `--config`/`KBSYNC_CONFIG`): the repository's data;
 * and the user-level config outside the repository (`KBSYNC_USER_CONFIG`,
 * else `$XDG_CONFIG_HOME/kbsync/config.json`, else
 * `~/.config/kbsync/config.json`), which alone may name programs, credential
 * files and credential origins (the rule: `src/trust/config-files.ts`).
 */
import {stat} from 'node:fs/promises'
import path from 'node:path'
import {userConfigPlace, userOnlyKeys} from '../../trust/index.js'
import {ConfigError} from './errors.js'
import {findConfigFile, readConfigFile} from './find.js'
import {forbiddenFileKeys, keyDefinitions} from './keys.js'

/** The values of one config file, flattened (`watch.debounceMs`). */
export interface ConfigLayer {
  file: string
  /** The folder its relative paths resolve against. */
  dir: string
  /** `file`: the repository config (data); `user`: the user-level config. */
  source: 'file' | 'user'
  values: Map<string, unknown>
}

const allowedFileKeys = new Set(['$schema', '$comment', 'login', ...keyDefinitions.map((d) => d.key.split('.')[0]!)])

/** Flattens `{watch: {debounceMs: 1}}` into `watch.debounceMs`, checking the nested objects and unknown keys. */
function flattenFile(data: Record<string, unknown>, file: string): Map<string, unknown> {
  const out = new Map<string, unknown>()
  for (const [key, value] of Object.entries(data)) {
    if (Object.hasOwn(forbiddenFileKeys, key))
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

async function layerOf(file: string, source: ConfigLayer['source']): Promise<ConfigLayer> {
  return {file, dir: path.dirname(file), source, values: flattenFile(await readConfigFile(file), file)}
}

/**
 * The user-level config, when there is one: the file `KBSYNC_USER_CONFIG`
 * names (it must exist), else the default place when a file is there.
 */
export async function userLayer(env: NodeJS.ProcessEnv): Promise<ConfigLayer | undefined> {
  const place = userConfigPlace(env)
  if (place === undefined) return undefined
  if (place.namedBy === 'default' && !(await stat(place.file).catch(() => undefined))?.isFile()) return undefined
  return layerOf(place.file, 'user')
}

/**
 * The repository config: the file `--config`/`KBSYNC_CONFIG` names, else the
 * nearest one at or above `cwd` inside its repository. A key only the user
 * may set (a program, a credential file, a login, trusted origins) is
 * refused by name, before anything else is read. The user config named as
 * `--config` is read as what it is, once.
 */
export async function repositoryLayer(
  cwd: string,
  explicit: unknown,
  user: ConfigLayer | undefined
): Promise<ConfigLayer | undefined> {
  if (explicit !== undefined && (typeof explicit !== 'string' || explicit === ''))
    throw new ConfigError('--config must name a file', 'config')
  const file = typeof explicit === 'string' ? path.resolve(cwd, explicit) : await findConfigFile(cwd)
  if (file === undefined || file === user?.file) return undefined
  const layer = await layerOf(file, 'file')
  for (const key of layer.values.keys()) {
    const top = key.split('.')[0]!
    if (top in userOnlyKeys)
      throw new ConfigError(
        `key "${top}" is not allowed in a repository config (a config file that is not your user config is the repository's data): ${userOnlyKeys[top]}`,
        top,
        file
      )
  }
  return layer
}
