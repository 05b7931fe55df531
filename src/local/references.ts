/**
 * Resolves what a body refers to: relative links to other documents of the
 * folder, local images and attachment files. Three steps, so an unchanged
 * body need not be parsed: collect the references of a tree (plain data),
 * resolve them against the folder, and mark the tree's nodes with the
 * result (`node.data.kbsync`) when a tree is wanted for rendering.
 */
import path from 'node:path'
import type {Root} from 'mdast'
import {visit} from 'unist-util-visit'
import type {Diagnostic} from './diagnostic.js'
import {diagramPath, isMermaidLang, mermaidKey} from '../diagrams/mermaid-source.js'
import {keptAsCode} from '../diagrams/code-markers.js'
import {isDrawioPath} from '../dialect/gfm-to-kb/drawio-links.js'
import {
  findAssetTarget,
  findLinkTarget,
  splitUrl,
  type LinkContext,
  type LinkMiss,
  type LinkTarget
} from './link-resolve.js'
import type {LinkTargets} from './link-targets.js'

/**
 * What a node of the tree was resolved to: a document, a local file to
 * upload, a URL to link to instead (a file of the repository), or nothing
 * but its text (the link's text, the image's alt).
 */
export type Resolved =
  | {link: {target: string; kind: 'article' | 'topic'}}
  | {asset: {path: string}}
  | {external: {url: string}}
  | {plain: true}

/** Documents known to the scan (article files, topic folders, their site addresses) and the other files it found. */
export interface DocumentIndex extends LinkTargets {
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
  /** `diagram`: a Mermaid code block (`url` is empty, `source` its text), published as the image of its rendering. */
  kind: 'link' | 'image' | 'attachment' | 'diagram'
  url: string
  /** The diagram's source (`diagram` only). */
  source?: string
  line?: number
  column?: number
}

type RefNode = {
  type: string
  url?: string
  value?: string
  data?: object
  position?: {start: {line: number; column: number}}
}

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
    for (const child of parent.children as Array<{
      type: string
      url?: string
      lang?: string | null
      children?: unknown[]
    }>) {
      if (child.url !== undefined && isLocalUrl(child.url)) {
        if (child.type === 'definition') localDefinitions = true
        else if (
          child.type === 'link' ||
          child.type === 'image' ||
          child.type === 'attachment' ||
          child.type === 'drawio'
        )
          nodes.push(child as RefNode)
      } else if (child.type === 'code' && isMermaidLang(child.lang)) {
        nodes.push(child)
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
    ...refKind(node),
    ...(node.position ? {line: node.position.start.line, column: node.position.start.column} : {})
  }))
}

/** What a reference node is, as a `LocalRef` records it: a Mermaid block is a diagram, a draw.io node an image of its file. */
function refKind(node: RefNode): Pick<LocalRef, 'kind' | 'url' | 'source'> {
  if (node.type === 'code') return {kind: 'diagram', url: '', source: node.value ?? ''}
  return {kind: node.type === 'drawio' ? 'image' : (node.type as LocalRef['kind']), url: node.url ?? ''}
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
  /** Per reference (same order): what it points at, or null (left as written: an error stops the run). */
  resolutions: Array<Resolved | null>
  /** Folder-relative paths of the local files the body uses (`../x.png` for one elsewhere in the repository). */
  used: string[]
  /** The Mermaid diagrams of the body, in document order (each resolved to its rendering's path, `diagramPath`). */
  diagrams: DiagramUse[]
}

/** A Mermaid block of a body: its key (`mermaidKey`), its source, and where it is. */
export interface DiagramUse {
  key: string
  source: string
  file: string
  /** 1-based line of the opening fence. */
  line?: number
}

/** How links are resolved beyond the folder's own documents (the config's `brokenLinks`, `repoUrl`, `siteRoot`). */
export interface LinkOptions {
  /** A link or image whose target does not exist: an `error` (default), or a `warn`ing that publishes its text. */
  brokenLinks?: 'error' | 'warn'
  /** Base URL of the repository's files (`https://github.com/org/repo/blob/main/`): links to files outside the folder point there. */
  repoUrl?: string
  /** Absolute path of the folder root-relative paths are served from (Docusaurus's `static/`). */
  siteRoot?: string
}

/** Everything `resolveLocalRefs` reads: where the documents are, and the options. */
export interface ResolveContext extends LinkContext, LinkOptions {}

/**
 * Resolves the local references of the body of `file` (see
 * `link-resolve.ts` for the forms and the order): links to documents of the
 * folder, images and attachment files (inside the folder, or elsewhere in
 * the repository). Problems go to `diagnostics` with file and line.
 */
export async function resolveLocalRefs(
  refs: readonly LocalRef[],
  file: string,
  context: ResolveContext,
  diagnostics: Diagnostic[]
): Promise<Resolution> {
  const resolutions: Array<Resolved | null> = refs.map(() => null)
  const used: string[] = []
  const diagrams: DiagramUse[] = []
  for (const [index, ref] of refs.entries()) {
    const at = {
      file,
      ...(ref.line !== undefined ? {line: ref.line} : {}),
      ...(ref.column !== undefined ? {column: ref.column} : {})
    }
    const report: Report = (diagnostic) => diagnostics.push({...at, ...diagnostic})
    if (ref.kind === 'diagram') {
      const key = mermaidKey(ref.source ?? '')
      // A block the platform holds as code (a pull found it so) stays code: a push after the pull changes nothing.
      if (keptAsCode(context.root, key)) continue
      resolutions[index] = {asset: {path: diagramPath(key)}}
      diagrams.push({key, source: ref.source ?? '', ...at})
      continue
    }
    // A link to a draw.io file publishes the file (as the diagram, or a link to it): an asset like an image.
    if (ref.kind === 'link' && !isDrawioPath(ref.url)) {
      resolutions[index] = resolveLink(ref.url, await findLinkTarget(ref.url, file, context), context, report)
      continue
    }
    const found = await findAssetTarget(ref.url, file, context)
    const what = ref.kind === 'image' ? 'Image' : 'File'
    if ('file' in found) {
      resolutions[index] = {asset: {path: found.file}}
      used.push(found.file)
    } else if (found.refused) {
      const where = found.outside ? 'the repository that holds the folder' : 'the folder'
      report({
        severity: 'error',
        message: `${what} \`${ref.url}\` lies outside ${where} (or a symbolic link leads there)`,
        hint: 'Copy the file into the folder',
        rule: 'asset-outside'
      })
    } else {
      resolutions[index] = broken(context, report, {
        message: `${what} \`${ref.url}\` not found (looked for \`${found.lookedFor}\`)`,
        rule: 'asset-missing'
      })
    }
  }
  return {resolutions, used, diagrams}
}

type Report = (diagnostic: Omit<Diagnostic, 'file' | 'line' | 'column'>) => void

/** What a link becomes: a document link, a link into the repository, or its text (with a warning, or an error when broken). */
function resolveLink(
  url: string,
  found: LinkTarget | LinkMiss,
  context: ResolveContext,
  report: Report
): Resolved | null {
  if ('document' in found) return {link: found.document}
  if ('repositoryFile' in found || 'file' in found) {
    const inRepository =
      'repositoryFile' in found
        ? found.repositoryFile
        : context.repository !== undefined
          ? repositoryPath(context, found.file)
          : undefined
    if (context.repoUrl !== undefined && inRepository !== undefined)
      return {external: {url: repositoryUrl(context.repoUrl, inRepository, url)}}
    if ('file' in found) {
      // The platform cannot hold a link to a local file: a relative URL there would lead nowhere.
      report({
        severity: 'warning',
        message: `Link \`${url}\` points to a local file that is not a document; its text is published without the link`,
        hint: 'Put the file in an attachments group to upload it, or set repoUrl to link to it in the repository',
        rule: 'link-to-file'
      })
      return {plain: true}
    }
    report({
      severity: 'warning',
      message: `Link \`${url}\` points outside the folder (to \`${found.repositoryFile}\` of the repository); its text is published without the link`,
      hint: 'Set repoUrl (e.g. "https://github.com/org/repo/blob/main/") to link to the file in the repository',
      rule: 'link-outside'
    })
    return {plain: true}
  }
  if (found.outside) {
    return broken(context, report, {
      message: `Link \`${url}\` points outside the folder, to \`${found.lookedFor}\`, which is no file of the repository that holds it`,
      rule: 'link-outside'
    })
  }
  return broken(context, report, {
    message: `Link \`${url}\` points to \`${found.lookedFor}\`, which is not a document of the folder`,
    hint: 'Fix the path, or remove the link (an ignored file is not a document either)',
    rule: 'missing-link-target'
  })
}

/** A target that does not exist: an error, or with `brokenLinks: "warn"` a warning and the reference published as its text. */
function broken(
  context: ResolveContext,
  report: Report,
  problem: {message: string; hint?: string; rule: string}
): Resolved | null {
  if (context.brokenLinks !== 'warn') {
    report({severity: 'error', ...problem})
    return null
  }
  report({
    severity: 'warning',
    ...problem,
    message: `${problem.message}; its text is published without it (--broken-links=warn)`
  })
  return {plain: true}
}

/** The repository-relative path of the folder-relative `file`. */
function repositoryPath(context: ResolveContext, file: string): string {
  return path.relative(context.repository!, path.join(context.root, file)).split(path.sep).join('/')
}

/** `repoUrl` joined with a repository path, the link's `?query#anchor` kept. */
function repositoryUrl(repoUrl: string, repositoryFile: string, url: string): string {
  const encoded = repositoryFile.split('/').map(encodeURIComponent).join('/')
  return `${repoUrl.replace(/\/+$/, '')}/${encoded}${splitUrl(url).suffix}`
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
          ? {
              type: 'link' as const,
              url,
              title,
              children: node.children,
              ...(node.position ? {position: node.position} : {})
            }
          : {
              type: 'image' as const,
              url,
              title,
              alt: node.alt ?? '',
              ...(node.position ? {position: node.position} : {})
            }
      parent.children.splice(index, 1, replacement as never)
    }
    return undefined
  })
}

/** The context `resolveLocalRefs` reads for the folder at `root` (absolute real path): its documents, its repository (`repositoryRoot` of `root`), the options. */
export function resolveContextOf(
  root: string,
  repository: string | undefined,
  documents: DocumentIndex,
  options: LinkOptions = {}
): ResolveContext {
  return {
    root,
    targets: documents,
    files: documents.files,
    ...(repository !== undefined ? {repository} : {}),
    ...options
  }
}
