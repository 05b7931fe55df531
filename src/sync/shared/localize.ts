/**
 * The pull side of references, on a dialect tree: article and topic links
 * become relative links to the pulled files, image and attachment URLs become
 * relative paths of the downloaded files; and the exact reverse, which tells
 * whether a pulled text renders back to the same body. Pure tree transforms.
 */
import path from 'node:path'
import type {Nodes, Root, RootContent} from 'mdast'
import {visit} from 'unist-util-visit'
import type {LinkForms} from './platform-links.js'
import {altOf, nodeDiagramKind, renderedImage, type DiagramKind, type DiagramSource} from '../../diagrams/index.js'

/** What localizing a body needs to know. */
export interface LocalizeContext {
  /** Repo-relative path of the file being written (`a/b.md`, `a/_index.md`). */
  file: string
  /** Repo-relative path of the document an id maps to (article file, topic `_index.md`), when it was pulled. */
  documentOf(kind: 'article' | 'topic', id: string): string | undefined
  /** Repo-relative path of the downloaded copy of a file URL, when there is one. */
  assetOf(url: string): string | undefined
  /** The source of the diagram or formula published at a file URL (`diagramSourceLookup`), when the folder keeps it. */
  diagramOf?(url: string): DiagramSource | undefined
  /** The platform's URL forms (made ready once per pull) and the page of the document being written: links are normalised first (`platform-links.ts`). */
  links?: {forms: LinkForms; pageUrl: string}
}

/** The remote reference behind a relative URL written by `localizeTree`. */
export type Origin = {kind: 'article' | 'topic'; id: string} | {url: string}

/** Every image, attachment and draw.io diagram URL of a body, in document order. */
export function fileUrls(tree: Root): string[] {
  const urls: string[] = []
  visit(tree, (node) => {
    if ((node.type === 'image' || node.type === 'attachment' || node.type === 'drawio') && !urls.includes(node.url))
      urls.push(node.url)
  })
  return urls
}

/** Encodes a relative path as a link destination that `resolveLocal` reads back to the same path. */
export function encodePath(relative: string): string {
  return relative
    .split('/')
    .map((part) => part.replace(/%/g, '%25').replace(/#/g, '%23').replace(/\?/g, '%3F').replace(/ /g, '%20'))
    .join('/')
}

/** A relative link from `file` to `target` (both repo-relative). */
export function relativeUrl(file: string, target: string): string {
  const from = path.posix.dirname(file)
  const relative = path.posix.relative(from === '.' ? '' : from, target)
  return encodePath(relative)
}

/**
 * Rewrites `tree` in place for the folder (`localizedTree`, its children
 * taken over). Returns what each new relative URL stands for (for
 * `restoreTree`).
 */
export function localizeTree(tree: Root, context: LocalizeContext): Map<string, Origin> {
  const {tree: localized, origins} = localizedTree(tree, context)
  tree.children = localized.children
  return origins
}

/**
 * `tree` for the folder, `tree` unchanged (only the nodes on the way to a
 * change are copied, the rest shared): `articleLink` nodes whose target was
 * pulled become `link` nodes to its file; images and attachments whose URL
 * was downloaded point at the local copy; an image of a diagram or formula
 * the folder keeps gives its source back. With what each new relative URL
 * stands for (for `restoreTree`). References to things not pulled are kept
 * in dialect form, so nothing is lost.
 */
export function localizedTree(tree: Root, context: LocalizeContext): {tree: Root; origins: Map<string, Origin>} {
  const origins = new Map<string, Origin>()
  const children = localizedChildren(tree.children, context, origins)
  return {tree: children === tree.children ? tree : {...tree, children}, origins}
}

/** `children` localized (`localizedNode`), or `children` itself when none changes. */
function localizedChildren<Child extends Nodes>(
  children: Child[],
  context: LocalizeContext,
  origins: Map<string, Origin>
): Child[] {
  let changed: Child[] | undefined
  for (let index = 0; index < children.length; index++) {
    const child = children[index]!
    const next = localizedNode(child, context, origins)
    if (next === child) continue
    changed ??= children.slice()
    changed[index] = next as Child
  }
  return changed ?? children
}

/** A node under the root for the folder (`localizedTree`), or `node` itself when nothing in it changes. */
function localizedNode(node: Nodes, context: LocalizeContext, origins: Map<string, Origin>): Nodes {
  const diagram = context.diagramOf ? renderedSourceOf(node, context.diagramOf) : undefined
  if (diagram) {
    origins.set(diagramOrigin(diagram.kind, diagram.source), {url: diagram.url})
    // The replaced image is still met, as an in-place walk met it (its URL may be a download's too).
    if ('children' in node) localizedChildren(node.children, context, origins)
    return diagram.node
  }
  let replaced: Nodes = node
  if (node.type === 'articleLink') {
    const kind = node.articleId !== undefined ? 'article' : 'topic'
    const id = node.articleId ?? node.topicId
    const target = id === undefined ? undefined : context.documentOf(kind, id)
    if (target !== undefined && id !== undefined) {
      const url = relativeUrl(context.file, target)
      origins.set(url, {kind, id})
      replaced = {type: 'link', url, children: node.children}
    }
  } else if (node.type === 'image' || node.type === 'attachment' || node.type === 'drawio') {
    const local = context.assetOf(node.url)
    if (local !== undefined) {
      const url = relativeUrl(context.file, local)
      origins.set(url, {url: node.url})
      replaced = {...node, url}
    }
  }
  if (!('children' in replaced)) return replaced
  const children = localizedChildren(replaced.children as Nodes[], context, origins)
  return children === replaced.children ? replaced : ({...replaced, children} as Nodes)
}

/** The reverse of `localizeTree` on a re-parsed tree: relative URLs back to ids and file URLs. */
export function restoreTree(tree: Root, origins: Map<string, Origin>): void {
  visit(tree, (node, index, parent) => {
    const kind = node.type === 'code' || node.type === 'inlineCode' ? nodeDiagramKind(node) : undefined
    if (kind !== undefined && parent && index !== undefined) {
      const origin = origins.get(diagramOrigin(kind, (node as {value: string}).value))
      if (origin && 'url' in origin)
        parent.children.splice(index, 1, renderedImage(kind, (node as {value: string}).value, origin.url) as never)
      return
    }
    if (node.type === 'link' && parent && index !== undefined) {
      const origin = origins.get(node.url)
      if (origin && 'id' in origin) {
        const link = {
          type: 'articleLink',
          ...(origin.kind === 'article' ? {articleId: origin.id} : {topicId: origin.id}),
          children: node.children
        }
        parent.children.splice(index, 1, link as never)
      }
      return
    }
    if (node.type === 'image' || node.type === 'attachment' || node.type === 'drawio') {
      const origin = origins.get(node.url)
      if (origin && 'url' in origin) node.url = origin.url
    }
  })
}

/** The key of a restored diagram or formula among the origins (no relative URL starts with a NUL). */
function diagramOrigin(kind: DiagramKind, source: string): string {
  return `\0${kind}\0${source}`
}

/** The fence language a restored diagram block is written with. */
const blockLanguages: Partial<Record<DiagramKind, string>> = {mermaid: 'mermaid', plantuml: 'plantuml', d2: 'd2'}

/**
 * The source an image of a diagram or formula of the folder stands for
 * (the image's alt as push writes it, so the source renders back to the
 * same body), with the image's URL: a paragraph holding only the image of a
 * diagram gives its fenced block back, of a display formula its `$$` block;
 * the image of an inline formula, wherever it is, its `$...$`.
 */
function renderedSourceOf(
  node: Nodes,
  diagramOf: (url: string) => DiagramSource | undefined
): {node: RootContent; kind: DiagramKind; source: string; url: string} | undefined {
  const image = node.type === 'paragraph' && node.children.length === 1 ? node.children[0]! : node
  if (image.type !== 'image') return undefined
  const found = diagramOf(image.url)
  if (found === undefined || altOf(found.kind, found.source) !== image.alt) return undefined
  const {kind, source} = found
  // An inline formula's image stands alone, a block's fills its paragraph.
  if ((kind === 'math-inline') !== (image === node)) return undefined
  const restored: RootContent =
    kind === 'math-inline'
      ? {type: 'inlineMath', value: source}
      : kind === 'math'
        ? {type: 'math', value: source}
        : {type: 'code', lang: blockLanguages[kind]!, value: source}
  return {node: restored, kind, source, url: image.url}
}
