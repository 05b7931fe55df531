/**
 * A block container's run of HTML too large for one parse (Astro pages
 * generated with a `<Fragment set:html>` per example hold thousands of
 * `<span>`s) cut into runs parsed one by one. A cut goes only where every
 * element opened before it is closed, so each run parses as it did within
 * the whole; runs are kept as long as the tag budget allows. The tags are
 * read by one linear scan (quotes, comments and raw text such as
 * `<script>` respected), never by a backtracking pattern.
 */
import {htmlVoidElements} from 'html-void-elements'

const voids = new Set(htmlVoidElements)
/** Elements whose content is text up to their closing tag: a `<` there opens nothing. */
const rawText = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext'])

/** The elements left open by HTML read so far; `broken` once a tag runs to the end (no cut after it). */
class OpenElements {
  private readonly stack: string[] = []
  private broken = false

  /** Whether every element opened so far is closed. */
  get closed(): boolean {
    return !this.broken && this.stack.length === 0
  }

  /** Reads the tags of `html`. */
  read(html: string): void {
    const lower = html.toLowerCase()
    let at = html.indexOf('<')
    while (at !== -1 && !this.broken) {
      const next = this.tag(html, lower, at)
      at = next >= html.length ? -1 : html.indexOf('<', next)
    }
  }

  /** Reads the tag (or comment, or lone `<`) at `at`; answers where reading goes on. */
  private tag(html: string, lower: string, at: number): number {
    if (html.startsWith('<!--', at)) {
      const end = html.indexOf('-->', at + 4)
      return end === -1 ? this.brake(html) : end + 3
    }
    const start = html[at + 1] === '/' ? at + 2 : at + 1
    const closing = start === at + 2
    const name = /^[a-z][a-z0-9:._-]*/.exec(lower.slice(start, start + 80))?.[0]
    if (!name) return at + 1
    const end = tagEnd(html, start + name.length)
    if (end === -1) return this.brake(html)
    if (closing) {
      const open = this.stack.lastIndexOf(name)
      if (open !== -1) this.stack.length = open
      return end + 1
    }
    if (voids.has(name) || html[end - 1] === '/') return end + 1
    if (rawText.has(name)) {
      const close = lower.indexOf(`</${name}`, end + 1)
      return close === -1 ? this.brake(html) : close
    }
    this.stack.push(name)
    return end + 1
  }

  private brake(html: string): number {
    this.broken = true
    return html.length
  }
}

/** The offset of the `>` ending the tag whose attributes start at `from` (quoted values skipped), or -1. */
export function tagEnd(html: string, from: number): number {
  let quote = ''
  for (let index = from; index < html.length; index++) {
    const char = html[index]!
    if (quote) {
      if (char === quote) quote = ''
    } else if (char === '"' || char === "'") quote = char
    else if (char === '>') return index
  }
  return -1
}

/** How many tags `html` holds, counted as the fragment's parse counts them. */
export function tagCount(html: string): number {
  return html.match(/<[A-Za-z]/g)?.length ?? 0
}

/**
 * Where a run of sibling nodes is cut into fragments of at most `limit`
 * tags: `html` holds each node's HTML as written (undefined for a node that
 * is no HTML: it stands in the fragment as one element). Answers the runs
 * as index ranges `[from, to]` (inclusive); one run when all fit, or when
 * no cut is possible. A run over `limit` remains where no cut can part it.
 */
export function htmlRuns(html: ReadonlyArray<string | undefined>, limit: number): Array<[number, number]> {
  const counts = html.map((value) => (value === undefined ? 1 : tagCount(value)))
  if (counts.reduce((sum, count) => sum + count, 0) <= limit) return [[0, html.length - 1]]
  const open = new OpenElements()
  const runs: Array<[number, number]> = []
  let from = 0
  let tags = 0
  // The last place a run may end before (all closed there), and the run's tags before it.
  let cut = -1
  let tagsBeforeCut = 0
  for (let index = 0; index < html.length; index++) {
    if (index > from && open.closed) [cut, tagsBeforeCut] = [index, tags]
    if (tags + counts[index]! > limit && cut > from) {
      runs.push([from, cut - 1])
      from = cut
      tags -= tagsBeforeCut
    }
    tags += counts[index]!
    const value = html[index]
    if (value !== undefined) open.read(value)
  }
  runs.push([from, html.length - 1])
  return runs
}
