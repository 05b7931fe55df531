/**
 * The external URLs a body uses, collected by the scan beside its local
 * references (and cached with them) for the link checker (`src/links/`):
 * every http(s) URL of a link, image, reference definition, attachment,
 * video or draw.io diagram of the dialect tree, at the line it is written
 * on. The tree is the one the push publishes (the GFM to dialect
 * conversion), so HTML images and links count too; `mailto:`, `tel:` and
 * local paths do not.
 */
import type {Root} from 'mdast'

/** One use of an external URL in a body. */
export interface ExternalUrl {
  url: string
  line?: number
  column?: number
  /** `link`: a reader follows it; `image`: the page loads it. */
  kind: 'link' | 'image'
}

/** Node types whose `url` a reader follows; every other node with a `url` is loaded by the page. */
const followed = new Set(['link', 'definition', 'attachment'])

/** Whether `url` is one the checker requests: an absolute http or https URL. */
function isCheckableUrl(url: string): boolean {
  return /^https?:\/\/[^/?#\s]/i.test(url)
}

type UrlNode = {type: string; url?: unknown; children?: unknown[]; position?: {start: {line: number; column: number}}}

/** The external URLs of a dialect tree, in document order. */
export function externalUrlsOf(tree: Root): ExternalUrl[] {
  const uses: ExternalUrl[] = []
  const stack: UrlNode[] = [tree]
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (typeof node.url === 'string' && isCheckableUrl(node.url.trim())) {
      const start = node.position?.start
      const url = node.url.trim()
      const kind = followed.has(node.type) ? 'link' : 'image'
      // Literals of one key order, as `plainExternalUrls` makes them: a spread gives the objects hidden classes of their own.
      uses.push(start ? {url, line: start.line, column: start.column, kind} : {url, kind})
    }
    // Pushed in reverse, so that children are visited in document order.
    if (Array.isArray(node.children))
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as UrlNode)
  }
  return uses
}

// The inline links and images of a plain body (`plainBodyRefs`, whose pattern this is): its only URLs.
const inlineRef = /(!?)\[([^[\]|\n]*)\]\(([^()\s<>"'|]*)\)/g

/** The external URLs of a body `plainBodyRefs` accepts, at the line and column the parser would give them. */
export function plainExternalUrls(body: string): ExternalUrl[] {
  const uses: ExternalUrl[] = []
  let line = 1
  let lineStart = 0
  for (const match of body.matchAll(inlineRef)) {
    const url = match[3]!
    if (!isCheckableUrl(url)) continue
    const at = match.index
    for (let index = body.indexOf('\n', lineStart); index !== -1 && index < at; index = body.indexOf('\n', index + 1)) {
      line++
      lineStart = index + 1
    }
    uses.push({url, line, column: at - lineStart + 1, kind: match[1] ? 'image' : 'link'})
  }
  return uses
}
