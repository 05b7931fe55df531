/**
 * Applies an outline (mdBook `SUMMARY.md`, MkDocs `nav`) to the folder
 * layout: below the outline's base folder, the outline decides the
 * structure, the titles and the order.
 *
 * - A page is an article; a page with sub-pages is a topic whose body is
 *   that page, keyed by the page's file (a file path is never a folder
 *   path, so the key cannot clash).
 * - A section (a label over pages, an mdBook part) is a topic without a
 *   file: keyed by the folder all its pages share when that folder is below
 *   the base and no other section took it (it keeps the folder's
 *   permissions and, unless listed, the folder's index page as body),
 *   else by a `.nav/` key (the walk never yields a dot-folder).
 * - Documents the outline does not list stay where their folders put them,
 *   after the listed ones, with one warning that counts them.
 */
import path from 'node:path'
import type {Diagnostic} from '../diagnostic.js'
import type {LayoutArticle, LayoutNode, LayoutTopic} from '../layout.js'
import type {NavEntry, NavOutline} from './types.js'

/** Reshapes the part of `layout` (the root topic of a scan of the folder `root`, absolute) below the outline's base. */
export function applyOutline(layout: LayoutTopic, outline: NavOutline, root: string, diagnostics: Diagnostic[]): void {
  const baseRelative = path.relative(root, outline.base).split(path.sep).join('/')
  const homeFolder = baseRelative.startsWith('..') ? '' : baseRelative
  const home = findFolder(layout, homeFolder)
  if (!home) return
  const folders = new Map<string, LayoutTopic>()
  const documents: string[] = []
  collect(home, home, folders, documents)
  const known = new Set(documents)
  const resolve = (file: string): string | undefined => {
    const relative = path.relative(root, path.resolve(outline.base, file)).split(path.sep).join('/')
    return relative.startsWith('..') || path.isAbsolute(relative) ? undefined : relative
  }
  // The document an entry names: a file, or a folder (`guide/`) for its index page.
  const resolvePage = (written: string): string | undefined => {
    const resolved = resolve(written.replace(/\/+$/, ''))
    return resolved !== undefined && !known.has(resolved) ? (folders.get(resolved)?.file ?? resolved) : resolved
  }
  const referenced = new Set<string>()
  const mark = (entries: NavEntry[]) => {
    for (const entry of entries) {
      const file = entry.file === undefined ? undefined : resolvePage(entry.file)
      if (file !== undefined && known.has(file)) referenced.add(file)
      mark(entry.children)
    }
  }
  mark(outline.entries)
  const used = new Set<string>()
  const topics = new Map<string, LayoutTopic>()
  const origin = (entry: NavEntry) => ({file: outline.file, line: entry.line})

  const pageFile = (entry: NavEntry): string | undefined => {
    if (entry.file === undefined) return undefined
    const file = resolvePage(entry.file)
    const problem = file === undefined ? (homeFolder === baseRelative ? 'lies outside the folder' : undefined) : !known.has(file) ? 'is not a document of the folder' : used.has(file) ? 'is listed twice' : undefined
    if (problem !== undefined) {
      diagnostics.push({
        severity: 'warning',
        file: outline.file,
        line: entry.line,
        message: `${outline.source} lists \`${entry.file}\`, which ${problem}; the entry is skipped`,
        hint: 'Fix the path in the navigation, or remove the entry (an ignored file is not a document either)',
        rule: 'navigation-missing'
      })
    }
    if (file === undefined || problem !== undefined) return undefined
    used.add(file)
    return file
  }

  const convert = (entry: NavEntry, titles: string[]): LayoutNode | undefined => {
    const file = pageFile(entry)
    const path = entry.title !== undefined ? [...titles, entry.title] : titles
    const children = entry.children.map((child) => convert(child, path)).filter((child): child is LayoutNode => child !== undefined)
    const named = entry.title !== undefined ? {navTitle: entry.title} : {}
    if (children.length === 0) return file === undefined ? undefined : {kind: 'article', file, ...named, nav: origin(entry)}
    if (file !== undefined) {
      const topic: LayoutTopic = {kind: 'topic', key: file, file, ...named, nav: origin(entry), ordered: true, children}
      topics.set(file, topic)
      return topic
    }
    return section(entry, path, children)
  }

  const section = (entry: NavEntry, titles: string[], children: LayoutNode[]): LayoutTopic => {
    const folder = commonFolder(children)
    const inside = folder !== undefined && folder !== homeFolder && (homeFolder === '' || folder.startsWith(homeFolder + '/'))
    const named = entry.title !== undefined ? {navTitle: entry.title} : {}
    if (inside && folders.has(folder) && !topics.has(folder)) {
      const topic: LayoutTopic = {kind: 'topic', key: folder, folder, ...named, nav: origin(entry), ordered: true, children}
      const index = folders.get(folder)!.file
      // A listed index page of the folder, as the section's own page (MkDocs' navigation.indexes), or an unlisted one: the body.
      const listed = children.findIndex((child) => child.kind === 'article' && child.file === index)
      if (listed !== -1) children.splice(listed, 1)
      if (index !== undefined && (listed !== -1 || !referenced.has(index))) {
        topic.file = index
        used.add(index)
      }
      topics.set(folder, topic)
      return topic
    }
    let key = [homeFolder, '.nav', ...titles.map((title) => title.replace(/\//g, '-'))].filter((part) => part !== '').join('/')
    for (let n = 2; topics.has(key); n++) key = key.replace(/~\d+$/, '') + `~${n}`
    const topic: LayoutTopic = {kind: 'topic', key, ...named, nav: origin(entry), ordered: true, children}
    topics.set(key, topic)
    return topic
  }

  const children = outline.entries.map((entry) => convert(entry, [])).filter((child): child is LayoutNode => child !== undefined)
  const ensureFolder = (folder: string): LayoutTopic => {
    if (folder === homeFolder) return home
    const existing = topics.get(folder)
    if (existing) return existing
    const original = folders.get(folder)!
    // A chapter whose page is the folder's index page (`guide/README.md`) stands for the folder.
    const chapter = original.file !== undefined ? topics.get(original.file) : undefined
    if (chapter) return chapter
    const topic: LayoutTopic = {kind: 'topic', key: folder, folder, children: []}
    if (original.file !== undefined && !used.has(original.file)) {
      topic.file = original.file
      used.add(original.file)
    }
    topics.set(folder, topic)
    const parent = ensureFolder(path.posix.dirname(folder) === '.' ? '' : path.posix.dirname(folder))
    ;(parent === home ? children : parent.children).push(topic)
    return topic
  }
  // The base folder's own body stays its body, unless the outline lists it as a page.
  if (home.file !== undefined) {
    if (used.has(home.file)) delete home.file
    else used.add(home.file)
  }
  const unlisted: string[] = []
  // An unlisted index page stays its folder's body, wherever the file lies (`x.md` beside `x/`).
  const bodyOf = new Map<string, string>()
  for (const [folder, topic] of folders) if (topic.file !== undefined) bodyOf.set(topic.file, folder)
  for (const file of documents) {
    if (used.has(file)) continue
    unlisted.push(file)
    const ownFolder = bodyOf.get(file)
    if (ownFolder !== undefined) {
      // ensureFolder gives a folder it makes its unused index page as body.
      const topic = ensureFolder(ownFolder)
      if (topic.file === undefined) topic.file = file
      if (topic.file === file) {
        used.add(file)
        continue
      }
    }
    used.add(file)
    const topic = ensureFolder(path.posix.dirname(file) === '.' ? '' : path.posix.dirname(file))
    ;(topic === home ? children : topic.children).push({kind: 'article', file} satisfies LayoutArticle)
  }
  home.children = children
  home.ordered = true
  if (unlisted.length > 0) {
    const shown = unlisted.slice(0, 3).map((file) => `\`${file}\``).join(', ')
    diagnostics.push({
      severity: 'warning',
      file: outline.file,
      message: `${unlisted.length} document${unlisted.length === 1 ? ' is' : 's are'} not in ${outline.source} (${shown}${unlisted.length > 3 ? ` and ${unlisted.length - 3} more` : ''}): published where ${unlisted.length === 1 ? 'its folder puts it' : 'their folders put them'}, after the listed ones`,
      hint: `List them in ${outline.source} to give them a place, or exclude them in .kbsyncignore`,
      rule: 'navigation-unlisted'
    })
  }
}

/** The folder topic of the layout whose folder is `folder`. */
function findFolder(topic: LayoutTopic, folder: string): LayoutTopic | undefined {
  if (topic.folder === folder) return topic
  for (const child of topic.children) {
    if (child.kind !== 'topic' || (child.folder !== undefined && folder !== child.folder && !folder.startsWith(child.folder + '/'))) continue
    const found = findFolder(child, folder)
    if (found) return found
  }
  return undefined
}

/** The documents below `topic` (not `home`'s own body unless listed), in layout order, and the folder topics they sit in. */
function collect(topic: LayoutTopic, home: LayoutTopic, folders: Map<string, LayoutTopic>, documents: string[]): void {
  if (topic !== home && topic.folder !== undefined) folders.set(topic.folder, topic)
  if (topic.file !== undefined) documents.push(topic.file)
  for (const child of topic.children) {
    if (child.kind === 'article') documents.push(child.file)
    else collect(child, home, folders, documents)
  }
}

/** The deepest folder that holds every document under `nodes`. */
function commonFolder(nodes: LayoutNode[]): string | undefined {
  const files: string[] = []
  const gather = (list: LayoutNode[]) => {
    for (const node of list) {
      if (node.file !== undefined) files.push(node.file)
      if (node.kind === 'topic') gather(node.children)
    }
  }
  gather(nodes)
  if (files.length === 0) return undefined
  let common = path.posix.dirname(files[0]!)
  for (const file of files) while (common !== '.' && file !== common && !file.startsWith(common + '/')) common = path.posix.dirname(common)
  return common === '.' ? '' : common
}
