/**
 * What the script-link tests look for in a stored body: the addresses it
 * makes live that run a script.
 */
import type {Nodes} from 'mdast'
import {parseKb} from '../../src/dialect/index.js'
import {isScriptUrl} from '../../src/trust/url-scheme.js'

/** The addresses `body` makes live that run a script: URL nodes the rule refuses, and HTML attributes naming a script scheme. */
export function liveScripts(body: string): string[] {
  const found: string[] = []
  const nodes: Nodes[] = [parseKb(body)]
  for (let node = nodes.pop(); node; node = nodes.pop()) {
    if (
      'url' in node &&
      typeof node.url === 'string' &&
      isScriptUrl(node.url, node.type === 'image' ? 'image' : 'link')
    )
      found.push(node.url)
    if (node.type === 'html' && /\b(?:href|src|action)\s*=/i.test(node.value)) found.push(node.value)
    if ('children' in node) nodes.push(...(node.children as Nodes[]))
  }
  return found
}
