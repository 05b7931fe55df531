/**
 * The last line of defence of `kbToHtml`: whatever the handlers built, only
 * known elements survive, no `on*` attribute, no `style`, every URL
 * attribute passes `safeUrl`, and every id carries the clobber prefix
 * (the handlers point the body's in-page links at it).
 */
import type {Element, Root, RootContent} from 'hast'
import {prefixIds} from './clobber.js'
import {safeUrl} from './url.js'

const allowed = new Set([
  'a',
  'b',
  'blockquote',
  'br',
  'code',
  'del',
  'details',
  'div',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'iframe',
  'img',
  'input',
  'li',
  'mark',
  'ol',
  'p',
  'pre',
  's',
  'section',
  'span',
  'strong',
  'sub',
  'summary',
  'sup',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'u',
  'ul',
  'video'
])
const urlProperties = ['href', 'src', 'action', 'formAction', 'poster', 'xLinkHref', 'background', 'cite', 'srcSet']

/** Sanitises `tree` in place and returns it; ids get `clobberPrefix`. */
export function sanitize(tree: Root, clobberPrefix: string): Root {
  tree.children = clean(tree.children, clobberPrefix) as Root['children']
  return tree
}

function clean(nodes: RootContent[], clobberPrefix: string): RootContent[] {
  const out: RootContent[] = []
  for (const node of nodes) {
    if (node.type === 'raw') out.push({type: 'text', value: node.value})
    else if (node.type === 'element') {
      if (!allowed.has(node.tagName)) {
        // An unexpected element is not rendered, its text is.
        out.push(...clean(node.children, clobberPrefix))
        continue
      }
      cleanProperties(node)
      prefixIds(node.properties, clobberPrefix)
      node.children = clean(node.children, clobberPrefix) as Element['children']
      out.push(node)
    } else if (node.type === 'text' || node.type === 'comment' || node.type === 'doctype') {
      if (node.type === 'text') out.push(node)
    }
  }
  return out
}

function cleanProperties(node: Element): void {
  for (const key of Object.keys(node.properties)) {
    if (/^on/i.test(key) || key === 'style') {
      delete node.properties[key]
      continue
    }
    if (urlProperties.includes(key)) {
      const value = node.properties[key]
      const url = typeof value === 'string' ? safeUrl(value, node.tagName === 'img' ? 'image' : 'other') : undefined
      if (url === undefined) delete node.properties[key]
      else node.properties[key] = url
    }
  }
}
