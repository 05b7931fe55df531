/**
 * Redaction of secrets in anything the CLI echoes: config dumps, error
 * messages, URLs with credentials.
 */

const mask = '[redacted]'

/**
 * Replaces every occurrence of the given secrets (tokens, security keys) in
 * `text`, plus `Authorization`/`Bearer` values and passwords in URLs.
 */
export function redact(text: string, secrets: Iterable<string | undefined> = []): string {
  let out = text
  // Longest first, so a secret containing another is masked whole.
  const list = [...secrets].filter((s): s is string => typeof s === 'string' && s.length >= 4).sort((a, b) => b.length - a.length)
  for (const secret of list) out = out.split(secret).join(mask)
  return out
    .replace(/(authorization["']?\s*[:=]\s*["']?)(bearer\s+)?[^\s"',}]+/gi, `$1${mask}`)
    .replace(/bearer\s+(?!\[redacted\])[A-Za-z0-9._~+/=-]+/gi, `Bearer ${mask}`)
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:)[^@\s/]+@/gi, `$1${mask}@`)
}

/** The names of configuration fields that hold secrets. */
export const secretKeys = ['token', 'securityKey'] as const

/**
 * A copy of a configuration object safe to print: secret fields replaced by
 * `[redacted]` (or left absent), every string value passed through `redact`.
 */
export function redactConfig<T extends object>(config: T): T {
  const secrets = secretKeys.map((key) => (config as Record<string, unknown>)[key]).filter((v): v is string => typeof v === 'string')
  const walk = (value: unknown, key?: string): unknown => {
    if (key !== undefined && (secretKeys as readonly string[]).includes(key)) return value === undefined ? undefined : mask
    if (typeof value === 'string') return redact(value, secrets)
    if (Array.isArray(value)) return value.map((v) => walk(v))
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]))
    }
    return value
  }
  return walk(config) as T
}
