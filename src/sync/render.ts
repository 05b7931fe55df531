/**
 * Renders a document's body as the platform will store it: relative links
 * become article/topic links with remote ids, local images and attachments
 * become the file URL the server already has for that content, or the guid
 * of a fresh upload. The result is the canonical dialect text, so a change
 * that does not alter the stored body (a link path after a move, whitespace
 * the canonical form erases) renders the same and costs no write.
 */
import type {PhrasingContent, Root} from 'mdast'
import {toKbText, type LocalNode, type Resolved} from '../local/index.js'
import {bodyHash} from './remote.js'

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

/** Renders the body of `node` (empty when it has none). */
export function renderBody(node: LocalNode, context: RenderContext): Rendered {
  const missingLinks: string[] = []
  const missingAssets: string[] = []
  if (!node.tree) return {body: '', hash: bodyHash(''), missingLinks, missingAssets}
  const tree = structuredClone(node.tree) as Root
  const rewrite = (parent: {children?: unknown[]}): void => {
    if (!Array.isArray(parent.children)) return
    const children = parent.children as Array<{type: string; data?: {kbsync?: Resolved}; url?: string; children?: unknown[]}>
    for (let index = 0; index < children.length; index++) {
      const child = children[index]!
      const resolved = child.data?.kbsync
      if (resolved && 'link' in resolved) {
        const {target, kind} = resolved.link
        const id = target === '' ? (context.rootTopicId ?? undefined) : context.idOf(target)
        if (target === '' && context.rootTopicId === null) {
          // The knowledge-base root is no topic one can link to: keep the text.
          children.splice(index, 1, ...((child.children ?? []) as typeof children))
          index--
          continue
        }
        if (id === undefined) missingLinks.push(target)
        const link = {
          type: 'articleLink',
          ...(kind === 'article' ? {articleId: id ?? 'PENDING'} : {topicId: id ?? 'PENDING'}),
          children: (child.children ?? []) as PhrasingContent[]
        }
        children[index] = link as never
        rewrite(link)
        continue
      }
      if (resolved && 'asset' in resolved) {
        const sha = context.hashOf(resolved.asset.path)
        const ref = sha === undefined ? undefined : context.fileRef(sha)
        if (ref === undefined) missingAssets.push(sha ?? resolved.asset.path)
        child.url = ref ?? 'PENDING-UPLOAD'
      }
      if (child.data) delete child.data.kbsync
      rewrite(child)
    }
  }
  rewrite(tree)
  const body = toKbText(tree)
  return {body, hash: bodyHash(body), missingLinks, missingAssets}
}
