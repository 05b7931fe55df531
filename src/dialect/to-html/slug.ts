/**
 * Heading slugs as GitHub (and the docs sites that follow github-slugger:
 * Docusaurus, VitePress, mdBook's close cousin) make them, so a link written
 * for those sites, `#enabling-recursive-types`, finds its heading here too.
 */

/**
 * What github-slugger removes: everything but letters, marks, decimal and
 * letter numbers, connector punctuation (`_`), alphabetic symbols, the space
 * and the hyphen-minus. Emoji, punctuation, other spaces and symbols go.
 */
const removed = /[^\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}\p{Alphabetic} -]/gu

/** The slug of `text`: lower case, the characters above removed, each space a `-` (no trimming, no collapsing). */
export function slug(text: string): string {
  return text.toLowerCase().replace(removed, '').replace(/ /g, '-')
}

/**
 * Hands out slugs unique within one page, as github-slugger does: the second
 * `Setup` is `setup-1`, the third `setup-2`; a slug already taken by an
 * earlier suffix (`setup-1` written as a heading) gets its own suffix.
 */
export class Slugger {
  #occurrences = new Map<string, number>()

  /** Marks `id` as taken (an id the page has for another reason), so no heading gets it. */
  reserve(id: string): void {
    if (!this.#occurrences.has(id)) this.#occurrences.set(id, 0)
  }

  /** The unique slug of `text`, taken from now on. */
  slug(text: string): string {
    const base = slug(text)
    let result = base
    while (this.#occurrences.has(result)) {
      const count = (this.#occurrences.get(base) ?? 0) + 1
      this.#occurrences.set(base, count)
      result = `${base}-${count}`
    }
    this.#occurrences.set(result, 0)
    return result
  }
}
