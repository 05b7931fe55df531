/**
 * Resolves what a body refers to: relative links to other documents of the
 * folder, local images and attachment files. Three steps, so an unchanged
 * body need not be parsed: collect the references of a tree (plain data),
 * resolve them against the folder (`reference-resolution.ts`), and mark the
 * tree's nodes with the result (`node.data.kbsync`) when a tree is wanted for
 * rendering.
 */
import path from 'node:path'
import type {Root} from 'mdast'
import {visit} from 'unist-util-visit'
import {nodeDiagramKind, type DiagramKind} from '../diagrams/kinds.js'
import {isLocalUrl} from '../dialect/local-url.js'
import type {LinkTargets} from './link-targets.js'

// Whether a URL points at something local: the dialect's answer (push and pull agree on draw.io files with it).
export {isLocalUrl}

// The link options (resolved in `reference-resolution.ts`) stay importable from here, as the package's index and the scan take them.
export type {LinkOptions} from './reference-resolution.js'

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
  /** `diagram`: a diagram block or a formula (`url` is empty, `source` its text), published as the image of its rendering. */
  kind: 'link' | 'image' | 'attachment' | 'diagram'
  url: string
  /** The diagram's source (`diagram` only). */
  source?: string
  /** What the diagram is (`diagram` only; absent: Mermaid). */
  diagram?: DiagramKind
  line?: number
  column?: number
}

type RefNode = {
  type: string
  url?: string
  value?: string
  lang?: string | null
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
  // Preorder with an explicit stack (each node's children pushed last first): a tree's nesting is its text's to choose.
  type Walked = RefNode & {children?: unknown[]}
  const stack: Walked[] = []
  const pushChildren = (parent: {children?: unknown[]}): void => {
    const children = parent.children as Walked[]
    for (let at = children.length - 1; at >= 0; at--) stack.push(children[at]!)
  }
  pushChildren(tree)
  for (let child = stack.pop(); child; child = stack.pop()) {
    if (child.url !== undefined && isLocalUrl(child.url)) {
      if (child.type === 'definition') localDefinitions = true
      else if (
        child.type === 'link' ||
        child.type === 'image' ||
        child.type === 'attachment' ||
        child.type === 'drawio'
      )
        nodes.push(child as RefNode)
    } else if ((child.type === 'code' || child.type === 'inlineCode') && nodeDiagramKind(child) !== undefined) {
      nodes.push(child)
    }
    if (Array.isArray(child.children)) pushChildren(child)
  }
  return {nodes, localDefinitions}
}

/** The local references of a dialect tree, in document order. */
export function collectLocalRefs(tree: Root): LocalRef[] {
  return localRefNodes(tree).map(localRefOf)
}

/**
 * The `LocalRef` of one reference node (a diagram block or formula is a
 * diagram, a draw.io node an image of its file), written as one object
 * literal: built by spreading two objects, each of a body's 300 links got a
 * hidden class and property array of its own, some 300 bytes of heap where
 * the literal takes 50, held by the scan until its end.
 */
function localRefOf(node: RefNode): LocalRef {
  const diagram = nodeDiagramKind(node)
  const start = node.position?.start
  if (diagram !== undefined) {
    const source = node.value ?? ''
    return start
      ? {kind: 'diagram', url: '', source, diagram, line: start.line, column: start.column}
      : {kind: 'diagram', url: '', source, diagram}
  }
  const kind = node.type === 'drawio' ? 'image' : (node.type as LocalRef['kind'])
  const url = node.url ?? ''
  return start ? {kind, url, line: start.line, column: start.column} : {kind, url}
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
    // A spread that adds a property its source lacks gives each object a hidden class of its own (see `localRefOf`).
    if (resolved) node.data = node.data ? {...node.data, kbsync: resolved} : {kbsync: resolved}
  })
  return nodes.length
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
