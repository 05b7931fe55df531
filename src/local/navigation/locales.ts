/**
 * Gives the folder layout the shape a docs site's configuration says
 * (`site-load.ts`): its sidebar, and its locales kept apart.
 *
 * - The default language's documents are the folder's own: when the
 *   scanned folder holds the docs folder (a Starlight project, a
 *   Docusaurus site), only the docs folder is published, as the root's
 *   content; when it lies inside it, the sidebar applies to what it holds.
 * - Each other locale's folder (Starlight's `es/` beside the English
 *   pages, Docusaurus' `i18n/es/docusaurus-plugin-content-docs/current/`,
 *   Hugo's per-language `contentDir`) is taken out of the default tree and,
 *   by the `locales` choice, published as one topic of its own after the
 *   default language's items (`topics`, titled by the locale's label, shaped
 *   by the same sidebar with its translated labels), not published
 *   (`skip`), or, with `--locale CODE`, published alone as the whole folder.
 */
import path from 'node:path'
import type {Diagnostic} from '../diagnostic.js'
import {indexName, type LayoutNode, type LayoutTopic} from '../layout.js'
import {applyOutline} from './apply-outline.js'
import type {SiteNavigation, SiteTree} from './site-load.js'
import {localeText, siteOutline, type PageFacts} from './site-outline.js'
import type {NavOutline} from './types.js'

/** What to do with the locales other than the default language. */
export interface LocaleChoice {
  /** `topics`: one root topic per locale (the default); `skip`: not published. */
  mode: 'topics' | 'skip'
  /** Publish only this locale's documents, as the whole folder (`--locale CODE`). */
  only?: string
}

/** What arranging the layout works from. */
export interface ArrangeInput {
  /** The scanned folder, absolute. */
  root: string
  site?: SiteNavigation
  /** The other outlines (MkDocs `nav`, `SUMMARY.md`), applied to the default language's tree. */
  outlines: readonly NavOutline[]
  choice: LocaleChoice
  /** A document's front matter facts, by its path relative to the scanned folder. */
  facts(file: string): PageFacts
}

/** A locale tree placed in the layout. */
interface Placed {
  tree: SiteTree
  /** Its folder relative to the scanned folder, as the walk spells it (`''` when the scanned folder lies in it). */
  folder: string
  /** How deep the scanned folder lies inside the tree's folder (`a/b` for base/a/b), when it does. */
  inside?: string
  topic: LayoutTopic
}

/** Applies the outlines and the site's locales to `layout` (the root topic), in place. */
export function arrangeLayout(layout: LayoutTopic, input: ArrangeInput, diagnostics: Diagnostic[]): void {
  const placed = input.site ? placeTrees(layout, input.site, input.root) : []
  const main = mainTree(placed)
  if (!main) {
    for (const outline of input.outlines) applyOutline(layout, outline, input.root, diagnostics)
    if (input.choice.only !== undefined) diagnostics.push(unknownLocale(input.choice.only, [], input.site))
    return
  }
  const others = placed.filter((tree) => tree !== main && tree.inside === undefined)
  for (const other of others) detach(layout, other.topic)
  const only = input.choice.only
  const chosen =
    only !== undefined ? [main, ...others].find((tree) => names(tree.tree).includes(only.toLowerCase())) : main
  if (!chosen) diagnostics.push(unknownLocale(only!, [main, ...others], input.site))
  // Only what is published is shaped: a locale left out says nothing about its sidebar.
  const published = only !== undefined ? [] : input.choice.mode === 'skip' ? [] : others
  if (chosen === main || !chosen) {
    for (const outline of input.outlines) applyOutline(layout, outline, input.root, diagnostics)
    shapeTree(main, layout, input, diagnostics)
  } else {
    shapeTree(chosen, {kind: 'topic', key: '', children: [chosen.topic]}, input, diagnostics)
    return hoist(layout, chosen.topic)
  }
  for (const other of published) shapeTree(other, {kind: 'topic', key: '', children: [other.topic]}, input, diagnostics)
  if (main.folder !== '') hoist(layout, main.topic)
  for (const other of published) {
    const locale = other.tree.locale!
    other.topic.label = locale.label ?? locale.code
    delete other.topic.navTitle
    layout.children.push(other.topic)
  }
  if (published.length > 0) layout.ordered = true
}

/** The trees of the site found in the layout (or holding the scanned folder). */
function placeTrees(layout: LayoutTopic, site: SiteNavigation, root: string): Placed[] {
  const placed: Placed[] = []
  for (const tree of site.trees) {
    const relative = path.relative(root, tree.base).split(path.sep).join('/')
    if (relative === '' || relative.split('/').every((part) => part === '..')) {
      placed.push({tree, folder: '', inside: path.relative(tree.base, root).split(path.sep).join('/'), topic: layout})
      continue
    }
    if (relative.startsWith('..')) continue
    const topic = folderTopic(layout, relative)
    if (topic) placed.push({tree, folder: topic.folder!, topic})
  }
  return placed
}

/** The tree whose documents are the folder's own: the deepest that holds the scanned folder, else the default one. */
function mainTree(placed: Placed[]): Placed | undefined {
  const holding = placed.filter((tree) => tree.inside !== undefined)
  if (holding.length > 0) return holding.sort((a, b) => b.tree.base.length - a.tree.base.length)[0]
  return placed.find((tree) => tree.tree.isDefault)
}

/** Applies the site's sidebar, for the tree's locale, to the tree's topic inside `layout`. */
function shapeTree(tree: Placed, layout: LayoutTopic, input: ArrangeInput, diagnostics: Diagnostic[]): void {
  const site = input.site!
  if (site.items) applySidebar(tree, layout, input, diagnostics)
  for (const titled of site.folderTitles ?? []) {
    const folder = [tree.folder, titled.folder].filter(Boolean).join('/')
    const topic = folderTopic(tree.topic, folder)
    const {locale, isDefault} = tree.tree
    const text = localeText(titled.label, titled.translations, locale ?? {code: 'en', folder: ''}, isDefault)
    if (topic && text !== undefined && topic.navTitle === undefined) topic.label ??= text
  }
}

function applySidebar(tree: Placed, layout: LayoutTopic, input: ArrangeInput, diagnostics: Diagnostic[]): void {
  const site = input.site!
  const items = site.items!
  const prefix = tree.inside !== undefined && tree.inside !== '' ? tree.inside + '/' : ''
  const below = tree.folder === '' ? '' : tree.folder + '/'
  const documents = documentsOf(tree.topic).map((file) => prefix + file.slice(below.length))
  const scanRelative = (relative: string) => below + relative.slice(prefix.length)
  const outline = siteOutline(
    {
      file: site.file,
      source: site.source,
      naming: site.naming,
      items,
      ...(tree.tree.locale ? {locale: tree.tree.locale} : {}),
      isDefault: tree.tree.isDefault,
      base: tree.folder === '' ? tree.tree.base : path.join(input.root, tree.folder),
      documents,
      facts: (relative) => input.facts(scanRelative(relative))
    },
    diagnostics
  )
  applyOutline(layout, outline, input.root, diagnostics)
}

/** The documents below `topic` (its own body first), in layout order. */
function documentsOf(topic: LayoutTopic): string[] {
  const files: string[] = []
  const stack: LayoutNode[] = [topic]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node.file !== undefined) files.push(node.file)
    if (node.kind === 'topic') for (let at = node.children.length - 1; at >= 0; at--) stack.push(node.children[at]!)
  }
  return files
}

/** The folder topic of `folder` in the layout, matched in any case (Starlight's `zh-cn` locale lives in `zh-CN/`). */
function folderTopic(layout: LayoutTopic, folder: string): LayoutTopic | undefined {
  const wanted = folder.toLowerCase()
  const stack: LayoutTopic[] = [layout]
  while (stack.length > 0) {
    const topic = stack.pop()!
    const own = topic.folder?.toLowerCase()
    if (own === wanted) return topic
    if (own !== undefined && own !== '' && !wanted.startsWith(own + '/')) continue
    for (const child of topic.children) if (child.kind === 'topic') stack.push(child)
  }
  return undefined
}

/** Takes `topic` out of the layout. */
function detach(layout: LayoutTopic, topic: LayoutTopic): void {
  const stack: LayoutTopic[] = [layout]
  while (stack.length > 0) {
    const parent = stack.pop()!
    const index = parent.children.indexOf(topic)
    if (index !== -1) {
      parent.children.splice(index, 1)
      return
    }
    for (const child of parent.children) if (child.kind === 'topic') stack.push(child)
  }
}

/** Makes `topic`'s content the root's: its children, after its own page (an article: the root is never written; `_index.md` stays the root's body). */
function hoist(layout: LayoutTopic, topic: LayoutTopic): void {
  // A Hugo `_index.md` stays the root's body (which kbsync never writes, and says so), as when its folder is pushed.
  const body = topic.file !== undefined && path.posix.basename(topic.file) === indexName
  const own: LayoutNode[] = topic.file !== undefined && !body ? [{kind: 'article', file: topic.file}] : []
  layout.children = [...own, ...topic.children]
  if (body) layout.file = topic.file
  else delete layout.file
  if (topic.ordered) layout.ordered = true
}

/** The names a locale answers to in `--locale`: its key, language tag and folder name, in lower case. */
function names(tree: SiteTree): string[] {
  const locale = tree.locale
  if (!locale) return []
  return [locale.code, locale.lang, path.posix.basename(locale.folder)]
    .filter((name): name is string => name !== undefined && name !== '')
    .map((name) => name.toLowerCase())
}

function unknownLocale(only: string, trees: Placed[], site: SiteNavigation | undefined): Diagnostic {
  const known = trees.flatMap((tree) => (tree.tree.locale ? [tree.tree.locale.code] : []))
  return {
    severity: 'error',
    ...(site ? {file: site.file} : {}),
    message:
      known.length > 0
        ? `\`--locale ${only}\` names no locale of the site (${known.map((code) => `\`${code}\``).join(', ')})`
        : `\`--locale ${only}\`: the folder's site configuration names no locales`,
    hint: 'Name a locale the site configuration lists (its key or language tag), or push without --locale',
    rule: 'locale-unknown'
  }
}
