/**
 * Collects the external URLs the documents of a scanned folder use: the
 * scan records each body's http(s) links and images, at the lines they are
 * written on (`src/local/external-urls.ts`, cached with the body's other
 * facts); this puts them in folder order, each document once.
 */
import type {LocalNode, ScanResult} from '../local/index.js'
import type {LinkUse} from './types.js'

/** Every external URL used by the documents of `scan`, in folder order. */
export function collectLinkUses(scan: Pick<ScanResult, 'byPath'>): LinkUse[] {
  const seen = new Set<string>()
  const uses: LinkUse[] = []
  for (const node of Object.values(scan.byPath)) {
    const file = fileOf(node)
    if (node.externalUrls === undefined || seen.has(file)) continue
    seen.add(file)
    for (const {url, ...at} of node.externalUrls) uses.push({url, file, ...at})
  }
  return uses
}

/** The file that holds the body of `node` (`x.md`, or `dir/_index.md` for a topic). */
function fileOf(node: LocalNode): string {
  return node.file ?? node.path
}
