/**
 * Resolves what a body refers to: relative links to other documents of the
 * folder, local images and attachment files. Each resolved node is marked in
 * `node.data.kbsync` (plain data) so rendering can rewrite it later without
 * resolving again.
 */
import {realpath, stat} from 'node:fs/promises'
import path from 'node:path'
import type {Root} from 'mdast'
import {visit} from 'unist-util-visit'
import type {Diagnostic} from './diagnostic.js'
import {isInside} from './walk.js'

/** What a node of the tree was resolved to. */
export type Resolved = {link: {target: string; kind: 'article' | 'topic'}} | {asset: {path: string}}

/** Documents known to the scan: article files and topic folders. */
export interface DocumentIndex {
  articles: Set<string>
  topics: Set<string>
}

/** Whether `url` points at something local (not a scheme, not `//host`, not a fragment). */
export function isLocalUrl(url: string): boolean {
  return url !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith('//') && !url.startsWith('#')
}

/** Resolves a local `url` found in `file` to a repo-relative path, or undefined when it leaves the folder. */
export function resolveLocal(file: string, url: string): string | undefined {
  let clean = url.replace(/[?#].*$/, '')
  try {
    clean = decodeURIComponent(clean)
  } catch {
    // Keep it as written.
  }
  const joined = clean.startsWith('/') ? clean.slice(1) : path.posix.join(path.posix.dirname(file), clean)
  const normal = path.posix.normalize(joined).replace(/\/$/, '')
  if (normal === '..' || normal.startsWith('../')) return undefined
  return normal === '.' ? '' : normal
}

interface Pending {
  node: {data?: object; position?: {start: {line: number; column: number}}}
  kind: 'image' | 'attachment'
  url: string
  /** A plain link to a local file that is no document (not an attachment node). */
  plainLink?: boolean
}

/**
 * Marks links, images and attachments of `tree` (the body of `file`) and
 * returns the repo-relative paths of the local files it uses. Problems go to
 * `diagnostics` with file and line.
 */
export async function resolveReferences(
  tree: Root,
  file: string,
  root: string,
  documents: DocumentIndex,
  diagnostics: Diagnostic[]
): Promise<string[]> {
  const assets: Pending[] = []
  const at = (node: Pending['node']) => ({line: node.position?.start.line, column: node.position?.start.column})
  inlineLocalReferences(tree)
  visit(tree, (node) => {
    if (node.type === 'link' && isLocalUrl(node.url)) {
      const target = resolveLocal(file, node.url)
      const where = {file, ...at(node)}
      if (target === undefined) {
        diagnostics.push({severity: 'error', ...where, message: `Link \`${node.url}\` points outside the folder`, rule: 'link-outside'})
        return
      }
      const folder = target.endsWith('_index.md') ? target.replace(/\/?_index\.md$/, '') : target
      let resolved: Resolved | undefined
      if (documents.topics.has(folder)) resolved = {link: {target: folder, kind: 'topic'}}
      else if (documents.articles.has(target)) resolved = {link: {target, kind: 'article'}}
      if (resolved) {
        node.data = {...node.data, kbsync: resolved} as typeof node.data
      } else if (target.endsWith('.md') || !path.posix.extname(target)) {
        diagnostics.push({
          severity: 'error',
          ...where,
          message: `Link \`${node.url}\` points to \`${target}\`, which is not a document of the folder`,
          hint: 'Fix the path, or remove the link (an ignored file is not a document either)',
          rule: 'missing-link-target'
        })
      } else {
        assets.push({node, kind: 'attachment', url: node.url, plainLink: true})
      }
    } else if (node.type === 'image' && isLocalUrl(node.url)) {
      assets.push({node, kind: 'image', url: node.url})
    } else if (node.type === 'attachment' && isLocalUrl(node.url)) {
      assets.push({node, kind: 'attachment', url: node.url})
    }
  })
  const used: string[] = []
  for (const {node, kind, url, plainLink} of assets) {
    const where = {file, ...at(node)}
    const target = resolveLocal(file, url)
    const what = kind === 'image' ? 'Image' : 'File'
    if (target === undefined) {
      diagnostics.push({severity: 'error', ...where, message: `${what} \`${url}\` lies outside the folder`, rule: 'asset-outside'})
      continue
    }
    const absolute = path.join(root, target)
    let real: string
    try {
      real = await realpath(absolute)
      if (!(await stat(real)).isFile()) throw new Error('not a file')
    } catch {
      const rule = plainLink ? 'missing-link-target' : 'asset-missing'
      diagnostics.push({severity: 'error', ...where, message: `${plainLink ? 'Link target' : what} \`${url}\` not found (looked for \`${target}\`)`, rule})
      continue
    }
    if (!isInside(root, real)) {
      diagnostics.push({severity: 'error', ...where, message: `${what} \`${url}\` resolves outside the folder (symbolic link)`, rule: 'asset-outside'})
      continue
    }
    if (plainLink) {
      // A plain link to a local non-document file: the platform cannot hold it as a link.
      diagnostics.push({
        severity: 'warning',
        ...where,
        message: `Link \`${url}\` points to a local file that is not a document; it is left as written`,
        hint: 'Put the file in an attachments group to upload it',
        rule: 'link-to-file'
      })
      continue
    }
    node.data = {...node.data, kbsync: {asset: {path: target}} satisfies Resolved}
    used.push(target)
  }
  return used
}

/**
 * Turns reference-style links and images whose definition is a local path
 * (`[guide][g]` ... `[g]: guides/install.md`) into plain links and images,
 * and drops those definitions: they resolve like inline ones, and a relative
 * path left in a definition would mean nothing on the platform.
 */
function inlineLocalReferences(tree: Root): void {
  const local = new Map<string, {url: string; title?: string | null}>()
  visit(tree, 'definition', (node) => {
    if (isLocalUrl(node.url)) local.set(node.identifier, {url: node.url, title: node.title ?? null})
  })
  if (local.size === 0) return
  visit(tree, (node, index, parent) => {
    if (!parent || index === undefined) return
    if (node.type === 'definition' && local.has(node.identifier)) {
      parent.children.splice(index, 1)
      return index
    }
    if ((node.type === 'linkReference' || node.type === 'imageReference') && local.has(node.identifier)) {
      const {url, title} = local.get(node.identifier)!
      const replacement =
        node.type === 'linkReference'
          ? {type: 'link' as const, url, title, children: node.children, ...(node.position ? {position: node.position} : {})}
          : {type: 'image' as const, url, title, alt: node.alt ?? '', ...(node.position ? {position: node.position} : {})}
      parent.children.splice(index, 1, replacement as never)
    }
    return undefined
  })
}
