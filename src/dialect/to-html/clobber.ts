/**
 * DOM clobbering: an element's `id` (or `name`) becomes a global of the page
 * that embeds it (`<a id="location">` shadows `window.location` in some
 * browsers, `document.forms` and friends in all). Output meant for someone
 * else's page prefixes them, as GitHub and hast-util-sanitize do, and
 * in-page links follow the prefix so they still land.
 */
import type {Properties} from 'hast'

/** The prefix of ids when none is given (GitHub's and hast-util-sanitize's). */
export const defaultClobberPrefix = 'user-content-'

/** Properties whose values name globals: single ids, or lists of ids. */
const clobberable = ['id', 'name', 'ariaDescribedBy', 'ariaLabelledBy']

/**
 * `href` with its fragment prefixed when it points inside the page
 * (`#x` -> `#user-content-x`); a bare `#` (the top) and any other URL unchanged.
 */
export function prefixFragment(href: string, prefix: string = defaultClobberPrefix): string {
  return href.length > 1 && href.startsWith('#') ? '#' + prefix + href.slice(1) : href
}

/** Prefixes, in place, the ids an element's `properties` declare. */
export function prefixIds(properties: Properties, prefix: string): void {
  if (prefix === '') return
  for (const key of clobberable) {
    const value = properties[key]
    if (typeof value === 'string' && value !== '') properties[key] = prefix + value
    else if (Array.isArray(value)) properties[key] = value.map((id) => prefix + String(id))
  }
}
