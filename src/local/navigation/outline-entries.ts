/**
 * The outline's entries as layout nodes: a page is an article, a page with
 * sub-pages (or with its emptied folder beside it) a topic whose body is that page, a section (a label over pages)
 * a topic keyed by the folder its pages share or by a `.nav/` key.
 */
import path from 'node:path'
import type {LayoutNode, LayoutTopic} from '../layout.js'
import type {OutlineRun} from './outline-run.js'
import type {NavEntry} from './types.js'

/** The layout nodes of the outline's top-level entries, in its order. */
export function convertEntries(run: OutlineRun): LayoutNode[] {
  return present(run.outline.entries.map((entry) => convert(run, entry, [])))
}

function present(nodes: Array<LayoutNode | undefined>): LayoutNode[] {
  return nodes.filter((node): node is LayoutNode => node !== undefined)
}

function origin(run: OutlineRun, entry: NavEntry) {
  return {file: run.outline.file, line: entry.line}
}

function convert(run: OutlineRun, entry: NavEntry, titles: string[]): LayoutNode | undefined {
  const file = pageFile(run, entry)
  const path = entry.title !== undefined ? [...titles, entry.title] : titles
  const children = present(entry.children.map((child) => convert(run, child, path)))
  const named = entry.title !== undefined ? {navTitle: entry.title} : {}
  // A chapter whose sub-chapters all left keeps its folder, and stays the topic it is (chapter-folders.ts).
  if (children.length === 0 && !(file !== undefined && entry.keptFolder === true))
    return file === undefined ? undefined : {kind: 'article', file, ...named, nav: origin(run, entry)}
  if (file !== undefined) {
    const topic: LayoutTopic = {
      kind: 'topic',
      key: file,
      file,
      ...named,
      nav: origin(run, entry),
      ordered: true,
      children
    }
    run.topics.set(file, topic)
    return topic
  }
  return section(run, entry, path, children)
}

/** The document an entry lists, marked used; undefined (with a warning naming the line) when it names none, or one listed before. */
function pageFile(run: OutlineRun, entry: NavEntry): string | undefined {
  if (entry.file === undefined) return undefined
  const {outline, known, used} = run
  const file = run.resolvePage(entry.file)
  const problem =
    file === undefined
      ? run.homeFolder === run.baseRelative
        ? 'lies outside the folder'
        : undefined
      : !known.has(file)
        ? 'is not a document of the folder'
        : used.has(file)
          ? 'is listed twice'
          : undefined
  if (problem !== undefined) {
    run.diagnostics.push({
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

/** A section: the topic of the folder all its pages share (below the base, not yet taken), else a `.nav/` topic. */
function section(run: OutlineRun, entry: NavEntry, titles: string[], children: LayoutNode[]): LayoutTopic {
  const {homeFolder, folders, topics} = run
  const folder = commonFolder(children)
  const inside =
    folder !== undefined && folder !== homeFolder && (homeFolder === '' || folder.startsWith(homeFolder + '/'))
  const named = entry.title !== undefined ? {navTitle: entry.title} : {}
  if (inside && folders.has(folder) && !topics.has(folder)) {
    const topic: LayoutTopic = {
      kind: 'topic',
      key: folder,
      folder,
      ...named,
      nav: origin(run, entry),
      ordered: true,
      children
    }
    const index = folders.get(folder)!.file
    // A listed index page of the folder, as the section's own page (MkDocs' navigation.indexes), or an unlisted one: the body.
    const listed = children.findIndex((child) => child.kind === 'article' && child.file === index)
    if (listed !== -1) children.splice(listed, 1)
    if (index !== undefined && (listed !== -1 || !run.referenced.has(index))) {
      topic.file = index
      run.used.add(index)
    }
    topics.set(folder, topic)
    return topic
  }
  let key = [homeFolder, '.nav', ...titles.map((title) => title.replace(/\//g, '-'))]
    .filter((part) => part !== '')
    .join('/')
  for (let n = 2; topics.has(key); n++) key = key.replace(/~\d+$/, '') + `~${n}`
  const topic: LayoutTopic = {kind: 'topic', key, ...named, nav: origin(run, entry), ordered: true, children}
  topics.set(key, topic)
  return topic
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
  for (const file of files)
    while (common !== '.' && file !== common && !file.startsWith(common + '/')) common = path.posix.dirname(common)
  return common === '.' ? '' : common
}
