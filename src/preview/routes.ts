/**
 * The preview's addresses: pages of articles and topics, files of the
 * folder, and the internal resources. One place builds and parses them.
 */
import {decodePath, encodePath} from './escape.js'

/** Prefixes of the preview's addresses. */
export const prefixes = {
  article: '/a/',
  topic: '/t/',
  file: '/f/',
  fragment: '/_/fragment',
  events: '/_/events',
  client: '/_/client.js'
} as const

/** The page of a document. */
export function pageHref(node: {kind: 'article' | 'topic'; path: string}): string {
  if (node.kind === 'topic' && node.path === '') return '/'
  return (node.kind === 'article' ? prefixes.article : prefixes.topic) + encodePath(node.path)
}

/** The address of a file of the folder. */
export function fileHref(relative: string): string {
  return prefixes.file + encodePath(relative)
}

/** What a page address names; undefined when it names no page. */
export function parsePage(pathname: string): {kind: 'article' | 'topic'; path: string} | undefined {
  if (pathname === '/') return {kind: 'topic', path: ''}
  for (const kind of ['article', 'topic'] as const) {
    if (!pathname.startsWith(prefixes[kind])) continue
    const decoded = decodePath(pathname.slice(prefixes[kind].length).replace(/\/$/, ''))
    return decoded === undefined ? undefined : {kind, path: decoded}
  }
  return undefined
}
