/**
 * The tree `kbTreeToGfm` writes, made without changing the tree it is
 * given: article links become links, draw.io diagrams of local files their
 * authoring form (`drawio.ts`). Only the nodes on the way to a change are
 * copied; the rest is shared. A pull writes each body from a tree it keeps
 * for its proof, which needed a whole copy while the conversion changed it.
 */
import type {Nodes, Root} from 'mdast'
import {drawioAuthoringForm} from './drawio.js'

/** The URLs article and topic links are written with. */
export interface LinkUrls {
  articleUrl: (id: string) => string
  topicUrl: (id: string) => string
}

/** `tree` as GitHub-flavoured Markdown holds it (`tree` unchanged, unchanged parts shared). */
export function authoringTree(tree: Root, urls: LinkUrls): Root {
  return authoringNode(tree, urls) as Root
}

/** `node` with its changes, or `node` itself when nothing under it changes. Recursive: `assertNesting` bounds the depth. */
function authoringNode(node: Nodes, urls: LinkUrls): Nodes {
  if (node.type === 'drawio') return drawioAuthoringForm(node) ?? node
  const replaced: Nodes =
    node.type === 'articleLink'
      ? {
          type: 'link',
          url: node.articleId === undefined ? urls.topicUrl(node.topicId ?? '') : urls.articleUrl(node.articleId),
          children: node.children,
          ...(node.position ? {position: node.position} : {})
        }
      : node
  if (!('children' in replaced)) return replaced
  const children = replaced.children as Nodes[]
  let changed: Nodes[] | undefined
  for (let index = 0; index < children.length; index++) {
    const child = children[index]!
    const next = authoringNode(child, urls)
    if (next === child) continue
    changed ??= children.slice()
    changed[index] = next
  }
  return changed ? ({...replaced, children: changed} as Nodes) : replaced
}
