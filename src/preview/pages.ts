/**
 * From the model to what a page shows: the navigation, and for one document
 * its title, problems and rendered body. A body that fails to render shows
 * the failure as an error instead of a blank page.
 */
import path from 'node:path'
import type {LocalNode, LocalTopic} from '../local/index.js'
import type {PageDiagnostic} from './diagnostics.js'
import {renderBody} from './html.js'
import {diagnosticsOf, filesOf, type PreviewModel} from './model.js'
import type {NavItem} from './nav.js'
import type {ArticlePageInput} from './page.js'
import {pageHref, prefixes} from './routes.js'

/** The navigation of each model (built once per rescan; every page of the model shares it), and each node's chain of entries from the root. */
const navigations = new WeakMap<PreviewModel, {root: NavItem; chains: Map<LocalNode, NavItem[]>}>()

/** The navigation of the whole folder, with `current` marking the page shown. */
export function navOf(model: PreviewModel, current?: LocalNode): NavItem[] {
  let navigation = navigations.get(model)
  if (!navigation) navigations.set(model, (navigation = buildNavigation(model)))
  const chain = current && navigation.chains.get(current)
  return [chain ? withCurrent(chain) : navigation.root]
}

/** The entries of every node of `model`, none current. */
function buildNavigation(model: PreviewModel): {root: NavItem; chains: Map<LocalNode, NavItem[]>} {
  const errorsOf = (node: LocalNode) =>
    filesOf(node).reduce(
      (sum, file) => sum + (model.byFile.get(file) ?? []).filter((d) => d.severity === 'error').length,
      0
    )
  const chains = new Map<LocalNode, NavItem[]>()
  const item = (node: LocalNode, above: NavItem[]): NavItem => {
    const entry: NavItem = {kind: node.kind, title: node.title, href: pageHref(node)}
    const chain = [...above, entry]
    chains.set(node, chain)
    const errors = errorsOf(node)
    if (errors > 0) entry.errors = errors
    if (node.kind === 'topic') entry.children = node.children.map((child) => item(child, chain))
    return entry
  }
  const root = item(model.root, [])
  root.title = rootTitle(model)
  return {root, chains}
}

/** The navigation with the last entry of `chain` current: copies of that entry and its ancestors, the rest shared. */
function withCurrent(chain: readonly NavItem[]): NavItem {
  let copy: NavItem = {...chain[chain.length - 1]!, current: true}
  for (let index = chain.length - 2; index >= 0; index--) {
    const parent = chain[index]!
    const child = chain[index + 1]!
    const below = copy
    copy = {...parent, children: parent.children!.map((entry) => (entry === child ? below : entry))}
  }
  return copy
}

/** The root's title: the folder's name (the root maps to the configured root, which has no title of its own here). */
function rootTitle(model: PreviewModel): string {
  return path.basename(model.dir) || model.dir
}

/** Renders a document's body as HTML (`renderBody`, or a cache of its renderings). */
export type BodyRenderer = (node: LocalNode, model: PreviewModel) => string

/** The page of the document at `target`; undefined when there is none. */
export function pageOf(
  model: PreviewModel,
  target: {kind: 'article' | 'topic'; path: string},
  render: BodyRenderer = renderBody
): ArticlePageInput | undefined {
  const node = model.byPath[target.path]
  if (!node || node.kind !== target.kind) return undefined
  const warnings: PageDiagnostic[] = diagnosticsOf(model, node).map(({file: _file, ...rest}) => rest)
  let html = ''
  try {
    html = render(node, model)
  } catch (error) {
    warnings.unshift({
      severity: 'error',
      message: `The body could not be rendered: ${(error as Error).message}`,
      rule: 'preview-render'
    })
  }
  const title = node.kind === 'topic' && node.path === '' ? rootTitle(model) : node.title
  const page: ArticlePageInput = {
    title,
    html,
    warnings,
    nav: navOf(model, node),
    path: node.file ?? (node.path === '' ? './' : `${node.path}/`),
    documentTitle: `${title} \u2013 kbsync preview`,
    scriptHref: prefixes.client
  }
  if (node.kind === 'article') page.source = node.source
  if (node.kind === 'topic') page.children = childrenOf(node)
  return page
}

function childrenOf(topic: LocalTopic): NavItem[] {
  return topic.children.map((child) => ({kind: child.kind, title: child.title, href: pageHref(child)}))
}

/** The page shown for an address that names no document (a deleted or renamed file). */
export function missingPage(model: PreviewModel, pathname: string): ArticlePageInput {
  return {
    title: 'Not found',
    html: `<p>No article or topic of the folder has this address. The file may have been renamed or deleted; pick one from the list.</p>`,
    warnings: [],
    nav: navOf(model),
    path: pathname,
    documentTitle: 'Not found \u2013 kbsync preview',
    scriptHref: prefixes.client
  }
}
