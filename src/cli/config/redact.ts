/**
 * Redaction of secrets in the configuration the CLI echoes; the masking of
 * text itself is the one shared function, `api/redact.ts`.
 */

import {redact} from '../../api/redact.js'

export {redact} from '../../api/redact.js'

const mask = '[redacted]'

/** The names of configuration fields that hold secrets. */
const secretKeys = ['token', 'securityKey'] as const

/**
 * A copy of a configuration object safe to print: secret fields replaced by
 * `[redacted]` (or left absent), every string value passed through `redact`.
 */
export function redactConfig<T extends object>(config: T): T {
  const secrets = secretKeys
    .map((key) => (config as Record<string, unknown>)[key])
    .filter((v): v is string => typeof v === 'string')
  const walk = (value: unknown, key?: string): unknown => {
    if (key !== undefined && (secretKeys as readonly string[]).includes(key))
      return value === undefined ? undefined : mask
    if (typeof value === 'string') return redact(value, secrets)
    if (Array.isArray(value)) return value.map((v) => walk(v))
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]))
    }
    return value
  }
  return walk(config) as T
}
