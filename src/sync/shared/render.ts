/**
 * Renders a document's body as the platform will store it: relative links
 * become article/topic links with remote ids, local images and attachments
 * become the file URL the server already has for that content, or the guid
 * of a fresh upload. The result is the canonical dialect text, so a change
 * that does not alter the stored body (a link path after a move, whitespace
 * the canonical form erases) renders the same and costs no write.
 */
import type {Root} from 'mdast'
import {bodyTree, hasBody, sha256, toKbText, type LocalNode, type Resolved} from '../../local/index.js'
import {kbsyncVersion} from '../../version.js'
import {bodyHash} from './remote.js'
import {renderedNode} from '../../diagrams/publish.js'
import {noticeBlock, noticeLink, type NoticeSettings} from './notice.js'
import {altTextNodes} from './image-alt.js'
import {dropTemplate, fillTemplate, heldTemplate, slotPrefix, templateOf, type RenderTemplate} from './render-slots.js'
import {fillWithoutUnknownLinks} from './unknown-links-as-text.js'

/** What rendering needs to know about the remote. */
export interface RenderContext {
  /** Remote id of a local document (article file or topic folder), when it has one. */
  idOf(path: string): string | undefined
  /** The configured root (the folder `''`). */
  rootTopicId: string | null
  /** sha256 of a local file by its path. */
  hashOf(path: string): string | undefined
  /** What the body should reference for a file: its known URL, or a fresh guid. */
  fileRef(sha256: string): string | undefined
  /** The notice at the top of each article (config `notice`); absent: none. */
  notice?: NoticeSettings
}

/** A rendered body. */
export interface Rendered {
  body: string
  hash: string
  /** Link targets whose ids are not known yet (a placeholder stands in). */
  missingLinks: string[]
  /** File hashes with neither URL nor guid yet (a placeholder stands in). */
  missingAssets: string[]
}

// The last complete render of each document: the plan and the apply of one push often render it with the same key.
const lastRender = new WeakMap<LocalNode, {key: string; rendered: Rendered}>()

/**
 * Renders the body of `node` (empty when it has none). `key` is its
 * `renderKey` with `context`, for a caller that has just computed it.
 */
export function renderBody(
  node: LocalNode,
  context: RenderContext,
  key: string | undefined = renderKey(node, context)
): Rendered {
  const last = key === undefined ? undefined : lastRender.get(node)
  if (last && last.key === key) return last.rendered
  const rendered = renderFromTemplate(node, context) ?? renderTree(node, context)
  if (key !== undefined) lastRender.set(node, {key, rendered})
  return rendered
}

/**
 * Lets go of what rendering `node` keeps (its tree, its last render) once
 * its body is written: a large push then holds the trees of the documents
 * still to write, not of all. Should the body be needed again, it is parsed
 * again from the text.
 */
export function releaseRender(node: LocalNode): void {
  lastRender.delete(node)
  dropTemplate(node)
  delete node.tree
}

/**
 * The whole render of `node` with `context` as a template (`render-slots.ts`):
 * its link ids left for a later render to fill in (the one it holds, when
 * made with the same inputs). Undefined without a body, or while a file it
 * shows has no reference yet.
 */
export function renderTemplate(node: LocalNode, context: RenderContext): RenderTemplate | undefined {
  const key = templateKey(node, context)
  if (key === undefined) return undefined
  const held = heldTemplate(node)
  if (held?.key === key) return held
  const prefix = slotPrefix()
  const targets: string[] = []
  const slot = (target: string) => prefix + (targets.push(target) - 1)
  const {tree, missingAssets} = renderedTree(node, context, false, slot)
  if (!tree || missingAssets.length > 0) return undefined
  return templateOf(toKbText(tree), prefix, targets, key)
}

/** The render of `node` from the template it holds, when that was made with the inputs of `context` but the ids. */
function renderFromTemplate(node: LocalNode, context: RenderContext, unknownLinksAsText = false): Rendered | undefined {
  const template = heldTemplate(node)
  if (template === undefined || templateKey(node, context) !== template.key) return undefined
  const fill = unknownLinksAsText ? fillWithoutUnknownLinks : fillTemplate
  const filled = fill(template, context.idOf)
  return (
    filled && {body: filled.body, hash: bodyHash(filled.body), missingLinks: filled.missingLinks, missingAssets: []}
  )
}

type TreeNode = {
  type: string
  data?: {kbsync?: Resolved}
  url?: string
  alt?: string | null
  value?: string
  children?: TreeNode[]
}

/**
 * Renders the body of `node` for a create that cannot wait for every
 * document it links to (itself, or a link cycle): a link to a document
 * without an id yet is its text (listed in `missingLinks`), never a
 * placeholder, so what a reader sees meanwhile is the document. Not
 * remembered: the whole body follows. From the template it holds where its
 * links can be cut out of their tags (`unknown-links-as-text.ts`): no parse.
 */
export function renderWithoutUnknownLinks(node: LocalNode, context: RenderContext): Rendered {
  return renderFromTemplate(node, context, true) ?? renderTree(node, context, true)
}

function renderTree(node: LocalNode, context: RenderContext, unknownLinksAsText = false): Rendered {
  const {tree, missingLinks, missingAssets} = renderedTree(node, context, unknownLinksAsText)
  if (!tree) return {body: '', hash: bodyHash(''), missingLinks, missingAssets}
  const body = toKbText(tree)
  return {body, hash: bodyHash(body), missingLinks, missingAssets}
}

/**
 * The dialect tree the body of `node` renders to (undefined without a
 * body): links and files resolved as `renderBody` resolves them, every node
 * not rewritten the node of `bodyTree` itself, its position kept when the
 * tree has positions (pull's round trip maps blocks back to the file).
 */
export function renderedTree(
  node: LocalNode,
  context: RenderContext,
  unknownLinksAsText = false,
  slot?: (target: string) => string
): {tree: Root | undefined; missingLinks: string[]; missingAssets: string[]} {
  const missingLinks: string[] = []
  const missingAssets: string[] = []
  const source = bodyTree(node)
  if (!source) {
    // A body let go of is read again (`readBodyAgain`) before it renders: never published as an empty one.
    if (hasBody(node)) throw new Error(`${node.file ?? node.path}: its body was let go of and not read again`)
    return {tree: undefined, missingLinks, missingAssets}
  }

  // Copy on write: a rewritten node and its ancestors are new objects, every other node is the kept tree's
  // own. The kept tree stays as parsed for the next render, without a deep copy of it for each one.
  const rewriteChildren = (children: TreeNode[]): TreeNode[] | undefined => {
    let changed: TreeNode[] | undefined
    for (let index = 0; index < children.length; index++) {
      const child = children[index]!
      const replacement = rewriteNode(child)
      if (replacement === undefined) {
        changed?.push(child)
        continue
      }
      changed ??= children.slice(0, index)
      if (Array.isArray(replacement)) changed.push(...replacement)
      else changed.push(replacement)
    }
    return changed
  }
  // The node's replacement (a list when it dissolves into its children), or undefined when it stays as it is.
  const rewriteNode = (child: TreeNode): TreeNode | TreeNode[] | undefined => {
    const rewritten = Array.isArray(child.children) ? rewriteChildren(child.children) : undefined
    const children = rewritten ?? child.children ?? []
    const resolved = child.data?.kbsync
    if (resolved && 'link' in resolved) {
      const {target, kind} = resolved.link
      // The knowledge-base root is no topic one can link to: keep the text.
      if (target === '' && context.rootTopicId === null) return children
      const id = target === '' ? context.rootTopicId! : slot ? slot(target) : context.idOf(target)
      if (id === undefined) missingLinks.push(target)
      if (id === undefined && unknownLinksAsText) return children
      return {
        type: 'articleLink',
        ...(kind === 'article' ? {articleId: id ?? 'PENDING'} : {topicId: id ?? 'PENDING'}),
        children
      } as TreeNode
    }
    if (resolved && 'plain' in resolved) return plainText(child, children)
    if (resolved && 'external' in resolved) {
      const {kbsync: _, ...data} = child.data!
      return {...child, data, url: resolved.external.url, ...(rewritten ? {children: rewritten} : {})}
    }
    if (resolved && 'asset' in resolved) {
      const sha = context.hashOf(resolved.asset.path)
      const ref = sha === undefined ? undefined : context.fileRef(sha)
      if (ref === undefined) missingAssets.push(sha ?? resolved.asset.path)
      // A diagram block or a formula is published as the image of its rendering.
      if (child.type === 'code' || child.type === 'inlineCode')
        return renderedNode(child, ref ?? 'PENDING-UPLOAD') as TreeNode
      const {kbsync: _, ...data} = child.data!
      return {...child, data, url: ref ?? 'PENDING-UPLOAD', ...(rewritten ? {children: rewritten} : {})}
    }
    return rewritten ? {...child, children: rewritten} : undefined
  }
  let children = rewriteChildren(source.children as TreeNode[])
  // The notice opens every article: part of the render, so the state's hash and the merge's base hold it.
  if (context.notice && node.kind === 'article')
    children = [noticeBlock(context.notice, node.path) as TreeNode, ...(children ?? (source.children as TreeNode[]))]
  return {tree: children ? ({...source, children} as Root) : source, missingLinks, missingAssets}
}

/**
 * What a reference published without its target leaves: a link its text,
 * an image its alt text, an attachment nothing (its group keeps the others).
 */
function plainText(node: TreeNode, children: TreeNode[]): TreeNode[] {
  if (node.type === 'image') return node.alt ? (altTextNodes(node.alt) as TreeNode[]) : []
  return node.type === 'attachment' ? [] : children
}

// A release may render the same input differently: its keys must not match an older one's.
const renderFormat = `kbsync-render/2 ${kbsyncVersion}`

/**
 * A hash of everything rendering `node` with `context` reads: the body
 * (by its cache key), and the id or file reference each of its local
 * references gets. The same key means the same rendered body, so a body
 * whose key the state recorded need not be parsed or rendered again.
 * Undefined when the node has no body or an input is not known yet (the
 * render would hold a placeholder).
 */
export function renderKey(node: LocalNode, context: RenderContext): string | undefined {
  const inputs = renderInputs(node, context, true)
  return inputs && sha256(JSON.stringify([renderFormat, node.bodyKey, inputs]))
}

/** A hash of what rendering `node` with `context` reads but the ids of its links (`renderTemplate`). */
function templateKey(node: LocalNode, context: RenderContext): string | undefined {
  const inputs = renderInputs(node, context, false)
  return inputs && sha256(JSON.stringify([renderFormat, 'template', node.bodyKey, context.rootTopicId, inputs]))
}

/** What rendering `node` with `context` reads (`linkIds`: the id of each link too); undefined when an input is not known. */
function renderInputs(node: LocalNode, context: RenderContext, linkIds: boolean): unknown[] | undefined {
  if (node.bodyKey === undefined) return undefined
  const inputs: unknown[] = []
  if (context.notice && node.kind === 'article')
    inputs.push(['notice', context.notice.text, noticeLink(context.notice, node.path) ?? null])
  for (const resolved of node.resolutions ?? []) {
    if (!resolved) continue
    if ('plain' in resolved || 'external' in resolved) {
      // Decided by the scan (with the config): part of the input all the same, so a new repoUrl renders anew.
      inputs.push(resolved)
      continue
    }
    if ('link' in resolved) {
      if (!linkIds) continue
      const {target} = resolved.link
      const id = target === '' ? context.rootTopicId : context.idOf(target)
      if (id === undefined && target !== '') return undefined
      inputs.push([target, id])
      continue
    }
    const sha = context.hashOf(resolved.asset.path)
    const ref = sha === undefined ? undefined : context.fileRef(sha)
    if (ref === undefined) return undefined
    inputs.push([resolved.asset.path, ref])
  }
  return inputs
}

/** The hash of a body as it would be rendered now. */
export interface RenderedHash {
  hash: string
  /** The render key (`renderKey`); undefined when an input is missing. */
  key: string | undefined
  /** Whether every link and file was known (no placeholder in the body). */
  complete: boolean
}

/**
 * The hash of the body `node` renders to with `context`: taken from
 * `recorded` (a state entry) when it holds the same render key, so an
 * unchanged body costs no parse and no render; rendered otherwise.
 */
export function renderedHashOf(
  node: LocalNode,
  context: RenderContext,
  recorded?: {renderKey?: string; renderedHash?: string}
): RenderedHash {
  const key = renderKey(node, context)
  if (key !== undefined && recorded?.renderKey === key && recorded.renderedHash !== undefined)
    return {hash: recorded.renderedHash, key, complete: true}
  const rendered = renderBody(node, context, key)
  return {hash: rendered.hash, key, complete: rendered.missingLinks.length + rendered.missingAssets.length === 0}
}
