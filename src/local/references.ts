/**
 * Resolves what a body refers to: relative links to other documents of the
 * folder, local images and attachment files. Three steps, so an unchanged
 * body need not be parsed: collect the references of a tree (plain data),
 * resolve them against the folder, and mark the tree's nodes with the
 * result (`node.data.kbsync`) when a tree is wanted for rendering.
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
  /** Other files the walk found: regular files, or links resolving inside the folder (no need to check them again). */
  files: Set<string>
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

/**
 * A reference to a local path as the body writes it: a link, an image or an
 * attachment. Plain data, so a scan can keep it (the body cache) instead of
 * parsing an unchanged body again.
 */
export interface LocalRef {
  kind: 'link' | 'image' | 'attachment'
  url: string
  line?: number
  column?: number
}

type RefNode = {type: string; url: string; data?: object; position?: {start: {line: number; column: number}}}

/**
 * The nodes of `tree` that point at a local path, in document order, after
 * reference-style local links are made inline. Collecting and marking both
 * walk this list, so the n-th `LocalRef` is always the n-th node.
 */
function localRefNodes(tree: Root): RefNode[] {
  const first = refNodesOf(tree)
  if (!first.localDefinitions) return first.nodes
  inlineLocalReferences(tree)
  return refNodesOf(tree).nodes
}

/**
 * One preorder walk (run for every body a scan parses, so a plain loop
 * rather than `visit`): the local link, image and attachment nodes, and
 * whether a definition points at a local path.
 */
function refNodesOf(tree: Root): {nodes: RefNode[]; localDefinitions: boolean} {
  const nodes: RefNode[] = []
  let localDefinitions = false
  const walk = (parent: {children?: unknown[]}): void => {
    for (const child of parent.children as Array<{type: string; url?: string; children?: unknown[]}>) {
      if (child.url !== undefined && isLocalUrl(child.url)) {
        if (child.type === 'definition') localDefinitions = true
        else if (child.type === 'link' || child.type === 'image' || child.type === 'attachment') nodes.push(child as RefNode)
      }
      if (Array.isArray(child.children)) walk(child)
    }
  }
  walk(tree)
  return {nodes, localDefinitions}
}

/** The local references of a dialect tree, in document order. */
export function collectLocalRefs(tree: Root): LocalRef[] {
  return localRefNodes(tree).map((node) => ({
    kind: node.type as LocalRef['kind'],
    url: node.url,
    ...(node.position ? {line: node.position.start.line, column: node.position.start.column} : {})
  }))
}

/**
 * Marks the nodes `refs` came from with what each resolved to
 * (`node.data.kbsync`), so rendering rewrites them without resolving again.
 * `tree` is a parse of the same body `collectLocalRefs` read. Returns how
 * many reference nodes the tree holds.
 */
export function markLocalRefs(tree: Root, resolutions: ReadonlyArray<Resolved | null>): number {
  const nodes = localRefNodes(tree)
  nodes.forEach((node, index) => {
    const resolved = resolutions[index]
    if (resolved) node.data = {...node.data, kbsync: resolved}
  })
  return nodes.length
}

/** What `resolveLocalRefs` found. */
export interface Resolution {
  /** Per reference (same order): what it points at, or null (external, broken, or left as written). */
  resolutions: Array<Resolved | null>
  /** Repo-relative paths of the local files the body uses. */
  used: string[]
}

/**
 * Resolves the local references of the body of `file`: links to documents
 * of the folder, images and attachment files (which must exist inside the
 * folder). Problems go to `diagnostics` with file and line.
 */
export async function resolveLocalRefs(
  refs: readonly LocalRef[],
  file: string,
  root: string,
  documents: DocumentIndex,
  diagnostics: Diagnostic[]
): Promise<Resolution> {
  const resolutions: Array<Resolved | null> = refs.map(() => null)
  const assets: Array<{index: number; plainLink: boolean}> = []
  const at = (ref: LocalRef) => ({file, line: ref.line, column: ref.column})
  refs.forEach((ref, index) => {
    if (ref.kind !== 'link') {
      assets.push({index, plainLink: false})
      return
    }
    const target = resolveLocal(file, ref.url)
    if (target === undefined) {
      diagnostics.push({severity: 'error', ...at(ref), message: `Link \`${ref.url}\` points outside the folder`, rule: 'link-outside'})
      return
    }
    const folder = target.endsWith('_index.md') ? target.replace(/\/?_index\.md$/, '') : target
    if (documents.topics.has(folder)) resolutions[index] = {link: {target: folder, kind: 'topic'}}
    else if (documents.articles.has(target)) resolutions[index] = {link: {target, kind: 'article'}}
    else if (target.endsWith('.md') || !path.posix.extname(target)) {
      diagnostics.push({
        severity: 'error',
        ...at(ref),
        message: `Link \`${ref.url}\` points to \`${target}\`, which is not a document of the folder`,
        hint: 'Fix the path, or remove the link (an ignored file is not a document either)',
        rule: 'missing-link-target'
      })
    } else {
      assets.push({index, plainLink: true})
    }
  })
  const used: string[] = []
  for (const {index, plainLink} of assets) {
    const ref = refs[index]!
    const where = at(ref)
    const target = resolveLocal(file, ref.url)
    const what = ref.kind === 'image' ? 'Image' : 'File'
    if (target === undefined) {
      diagnostics.push({severity: 'error', ...where, message: `${what} \`${ref.url}\` lies outside the folder`, rule: 'asset-outside'})
      continue
    }
    const found = documents.files.has(target) ? 'inside' : await locate(root, target)
    if (found === 'missing') {
      const rule = plainLink ? 'missing-link-target' : 'asset-missing'
      diagnostics.push({severity: 'error', ...where, message: `${plainLink ? 'Link target' : what} \`${ref.url}\` not found (looked for \`${target}\`)`, rule})
      continue
    }
    if (found === 'outside') {
      diagnostics.push({severity: 'error', ...where, message: `${what} \`${ref.url}\` resolves outside the folder (symbolic link)`, rule: 'asset-outside'})
      continue
    }
    if (plainLink) {
      // A plain link to a local non-document file: the platform cannot hold it as a link.
      diagnostics.push({
        severity: 'warning',
        ...where,
        message: `Link \`${ref.url}\` points to a local file that is not a document; it is left as written`,
        hint: 'Put the file in an attachments group to upload it',
        rule: 'link-to-file'
      })
      continue
    }
    resolutions[index] = {asset: {path: target}}
    used.push(target)
  }
  return {resolutions, used}
}

/** Whether the file at `target` (relative to `root`) exists and, links followed, lies inside the folder. */
async function locate(root: string, target: string): Promise<'inside' | 'outside' | 'missing'> {
  try {
    const real = await realpath(path.join(root, target))
    if (!(await stat(real)).isFile()) return 'missing'
    return isInside(root, real) ? 'inside' : 'outside'
  } catch {
    return 'missing'
  }
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
