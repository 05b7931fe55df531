/**
 * Groups the uses of external URLs into the targets to request: one per URL
 * without its fragment, however many documents use it, with the fragments
 * to look for on the page; URLs the config excludes are set aside.
 */
import type {LinkTarget, LinkUse} from './types.js'

/** The URL without its `#fragment`, and the fragment decoded (undefined when there is none or it is empty). */
export function splitFragment(url: string): {base: string; fragment?: string} {
  const at = url.indexOf('#')
  if (at === -1) return {base: url}
  const raw = url.slice(at + 1)
  let fragment = raw
  try {
    fragment = decodeURIComponent(raw)
  } catch {
    // Keep it as written.
  }
  return {base: url.slice(0, at), ...(fragment !== '' ? {fragment} : {})}
}

/** A matcher for exclude patterns: `*` matches any run of characters; a pattern without `*` is a prefix. */
export function excludeMatcher(patterns: readonly string[]): (url: string) => boolean {
  const compiled = patterns
    .map((pattern) => pattern.trim())
    .filter((pattern) => pattern !== '')
    .map((pattern) => {
      const body = pattern.split('*').map(escapeRegExp).join('.*')
      return new RegExp(pattern.includes('*') ? `^${body}$` : `^${body}`, 'i')
    })
  return (url) => compiled.some((pattern) => pattern.test(url))
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
}

/** The targets `uses` call for, in order of first use, and the uses of excluded URLs. */
export function groupTargets(
  uses: readonly LinkUse[],
  exclude: readonly string[] = []
): {targets: LinkTarget[]; excluded: LinkUse[]} {
  const excluded: LinkUse[] = []
  const isExcluded = excludeMatcher(exclude)
  const byUrl = new Map<string, LinkTarget>()
  for (const use of uses) {
    if (isExcluded(use.url)) {
      excluded.push(use)
      continue
    }
    const {base, fragment} = splitFragment(use.url)
    let target = byUrl.get(base)
    if (!target) byUrl.set(base, (target = {url: base, fragments: [], uses: []}))
    target.uses.push(use)
    if (fragment !== undefined && !target.fragments.includes(fragment)) target.fragments.push(fragment)
  }
  return {targets: [...byUrl.values()], excluded}
}
