/**
 * The one secret-masking function of kbsync: the client's errors and events
 * and everything the CLI echoes (config dumps, messages) go through it.
 */

const mask = '[redacted]'

/**
 * Replaces every occurrence of the given secrets (tokens, security keys;
 * those shorter than 4 characters are ignored, they would mask ordinary
 * words) in `text` with `[redacted]`, plus `Authorization`/`Bearer` values
 * and passwords in URLs (`https://user:password@host`) whoever wrote them.
 */
export function redact(text: string, secrets: Iterable<string | undefined> = []): string {
  let out = text
  // Longest first, so a secret containing another is masked whole.
  const list = [...secrets]
    .filter((s): s is string => typeof s === 'string' && s.length >= 4)
    .sort((a, b) => b.length - a.length)
  for (const secret of list) out = out.split(secret).join(mask)
  return out
    .replace(/(authorization["']?\s*[:=]\s*["']?)((?:bearer|basic|digest|token)\s+)?[^\s"',}]+/gi, `$1${mask}`)
    .replace(/bearer\s+(?!\[redacted\])[A-Za-z0-9._~+/=-]+/gi, `Bearer ${mask}`)
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:)[^@\s/]+@/gi, `$1${mask}@`)
}
