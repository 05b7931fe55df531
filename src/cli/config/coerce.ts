/**
 * Checking and converting one raw configuration value (a flag, an
 * environment variable or a file's key) by its key's kind, with a
 * `ConfigError` that names where the value came from.
 */
import {parseOrigin} from '../../trust/index.js'
import {ConfigError} from './errors.js'
import type {KeyDefinition} from './keys.js'

/** Where the value came from, for messages: `--concurrency`, `KBSYNC_CONCURRENCY`, `"concurrency" in FILE`. */
export interface ValueOrigin {
  source: 'flag' | 'env' | 'file'
  /** The name the user wrote. */
  name: string
  file?: string
}

function fail(origin: ValueOrigin, expected: string, shown?: string): never {
  const where =
    origin.source === 'file'
      ? `key "${origin.name}"`
      : origin.source === 'env'
        ? `environment variable ${origin.name}`
        : `option --${origin.name}`
  throw new ConfigError(
    `${where} must be ${expected}${shown === undefined ? '' : `, not ${shown}`}`,
    origin.name,
    origin.file
  )
}

/** A short, safe rendering of a bad value (values here are never secrets). */
function show(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value))
  return text.length > 60 ? text.slice(0, 57) + '...' : text
}

/**
 * Checks and converts one raw value of `definition`. Strings from the
 * environment and flags are parsed (`"8"` -> 8, `"true"` -> true); file values
 * must already have the JSON type.
 */
export function coerce(definition: KeyDefinition, raw: unknown, origin: ValueOrigin): unknown {
  const fromText = origin.source !== 'file' && typeof raw === 'string'
  switch (definition.kind) {
    case 'int': {
      const value = fromText && /^-?\d+$/.test((raw as string).trim()) ? Number(raw) : raw
      const range = `an integer from ${definition.min} to ${definition.max}`
      if (typeof value !== 'number' || !Number.isInteger(value)) fail(origin, range, show(raw))
      if (value < definition.min! || value > definition.max!) fail(origin, range, show(raw))
      return value
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return raw
      if (fromText && /^(1|true|yes)$/i.test(raw as string)) return true
      if (fromText && /^(0|false|no|)$/i.test(raw as string)) return false
      return fail(origin, 'true or false', show(raw))
    }
    case 'boolean-or-string': {
      if (typeof raw === 'boolean') return raw
      if (fromText && /^(1|true|yes|0|false|no|)$/i.test(raw as string)) return /^(1|true|yes)$/i.test(raw as string)
      if (typeof raw !== 'string' || raw.trim() === '') return fail(origin, 'true, false or a text', show(raw))
      return raw.trim()
    }
    case 'string-list': {
      if (fromText)
        return (raw as string)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      if (!Array.isArray(raw) || raw.some((s) => typeof s !== 'string')) fail(origin, 'an array of strings', show(raw))
      return raw
    }
    case 'origin-list': {
      const list = coerce({...definition, kind: 'string-list'}, raw, origin) as string[]
      return list.map((entry) => {
        const parsed = parseOrigin(entry)
        if (parsed === undefined)
          fail(origin, 'a list of origins such as "https://kb.example.com" (scheme, host and port only)', show(entry))
        return parsed
      })
    }
    case 'choice': {
      const value = typeof raw === 'string' ? raw.trim() : raw
      if (typeof value !== 'string' || !definition.choices!.includes(value))
        fail(origin, `one of ${definition.choices!.map((c) => `"${c}"`).join(', ')}`, show(raw))
      return value
    }
    case 'nullable-string': {
      if (raw === null) return null
      if (typeof raw !== 'string') return fail(origin, 'a string or null', show(raw))
      return raw.trim() === '' ? null : raw.trim()
    }
    case 'url': {
      if (typeof raw !== 'string' || raw.trim() === '') return fail(origin, 'a URL', show(raw))
      let url: URL
      try {
        url = new URL(raw.trim())
      } catch {
        return fail(origin, 'an http(s) URL', show(raw))
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(origin, 'an http(s) URL', show(raw))
      // Credentials in a URL would be echoed in every message that names the host.
      if (url.username || url.password) fail(origin, 'a URL without credentials (use KBSYNC_TOKEN)')
      return raw.trim().replace(/\/+$/, '')
    }
    case 'url-template': {
      if (typeof raw !== 'string' || !raw.includes('{id}'))
        return fail(origin, 'an http(s) URL containing {id}', show(raw))
      // Checked as the URL it becomes; the placeholder itself is not valid in every position.
      coerce({...definition, kind: 'url'}, raw.split('{id}').join('0'), origin)
      return raw.trim()
    }
    default: {
      if (typeof raw !== 'string' || raw.trim() === '') return fail(origin, 'a non-empty string', show(raw))
      return raw.trim()
    }
  }
}
