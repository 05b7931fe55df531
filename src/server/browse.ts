/**
 * The browse pages of the local server (loopback only, no token): the stored
 * tree as navigation and each item rendered the way the preview renders a
 * file, with the dialect's `kbToHtml` and the preview's page and stylesheet.
 */
import type {StructureNode} from '../api/types.js'
import {kbToHtml} from '../dialect/index.js'
import {navFromStructure, renderArticlePage} from '../preview/view.js'
import {KbServerError} from './errors.js'
import type {FileStore} from './file-store.js'
import type {FileAnswer} from './routes.js'
import type {KbStore} from './store.js'

const pageOf = (node: {type: string; id: string}) => `/browse/${node.type}/${encodeURIComponent(node.id)}`
const fileUrlPattern = /\/services\/kb\?Id=([0-9a-f-]{36})$/i

/** What a browse request answers: an HTML page or a stored file. */
export type BrowseAnswer = string | FileAnswer

/**
 * Answers `GET /` (the tree), `/browse/article/ID`, `/browse/topic/ID` and
 * `/browse/file/GUID` (a stored file, so the pages' images load without a token).
 */
export function browse(store: KbStore, pathname: string, apiUrl: string, files: FileStore): BrowseAnswer {
  const tree = store.structure(null, Number.MAX_SAFE_INTEGER)
  if (pathname === '/') {
    const html =
      tree.length === 0
        ? '<p>No items yet: run <code>kbsync push</code>.</p>'
        : `<p>API: <code>${escapeText(apiUrl)}</code></p>`
    return renderArticlePage({
      title: 'Local knowledge base',
      html,
      nav: navFromStructure(tree, pageOf),
      children: navFromStructure(tree, pageOf)
    })
  }
  const file = /^\/browse\/file\/([0-9a-f-]{36})$/i.exec(pathname)
  if (file) {
    const stored = store.file(file[1]!.toLowerCase())
    const bytes = stored ? files.read(stored.guid) : undefined
    if (!stored || !bytes) throw new KbServerError(404, 'not_found', 'No such file.')
    return {kind: 'file', name: stored.name, ...bytes}
  }
  const page = /^\/browse\/(article|topic)\/([A-Za-z0-9_-]+)$/.exec(pathname)
  if (!page) throw new KbServerError(404, 'not_found', 'No such page.')
  const item = store.view(page[2]!)
  const html = kbToHtml(item.body ?? '', {
    articleHref: (id) => pageOf({type: 'article', id}),
    topicHref: (id) => pageOf({type: 'topic', id}),
    resolveUrl: (url) => {
      const guid = fileUrlPattern.exec(url)?.[1]
      return guid ? `/browse/file/${guid}` : url
    }
  })
  const node = findNode(tree, item.id)
  return renderArticlePage({
    title: item.title,
    html,
    nav: navFromStructure(tree, pageOf, item.id),
    path: `${item.type} ${item.id} · version ${item.version} · updated ${item.updated_at}`,
    children: item.type === 'topic' ? navFromStructure(node?.children ?? [], pageOf) : undefined
  })
}

/** The node `id` in `nodes`, the first in tree order; iterative, as a stored tree may nest topics thousands deep. */
function findNode(nodes: StructureNode[], id: string): StructureNode | undefined {
  const stack = [...nodes].reverse()
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node.id === id) return node
    const children = node.children ?? []
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!)
  }
  return undefined
}

function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
