/**
 * The glob patterns of Hugo's cascade targets (`path: '{/blog,/blog/**}'`,
 * `kind: '{section,page}'`), matched by picomatch: `**` any path, `*` and
 * `?` any text within a segment, `{a,b}` either, `[abc]` / `[!abc]` a
 * character of (or not of) a set; compared without case, as Hugo does.
 * Only the constructs Hugo's globs have: no extglobs, no leading `!`;
 * Hugo's negated set `[!abc]` is picomatch's `[^abc]`.
 */
import picomatch from 'picomatch'

const options: picomatch.PicomatchOptions = {nocase: true, dot: true, noextglob: true, nonegate: true}

const matchers = new Map<string, picomatch.Matcher>()

/** Whether `value` matches the glob `pattern` (`/` separates the segments `*` stays within). */
export function matchesGlob(pattern: string, value: string): boolean {
  // picomatch refuses an empty pattern; an empty glob matches only empty text.
  if (!pattern) return !value
  let matcher = matchers.get(pattern)
  if (!matcher) {
    matcher = picomatch(pattern.replace(/(?<!\\)\[!/g, '[^'), options)
    if (matchers.size < 256) matchers.set(pattern, matcher)
  }
  return matcher(value)
}
