/**
 * What applying one outline works with (see `apply-outline.ts`): the base
 * folder's topic, the documents and folder topics below it, how an entry's
 * path names a document, and what the entries used and made so far.
 */
import path from 'node:path'
import type {Diagnostic} from '../diagnostic.js'
import type {LayoutTopic} from '../layout.js'
import type {NavEntry, NavOutline} from './types.js'

/** The state of one application of an outline. */
export interface OutlineRun {
  outline: NavOutline
  diagnostics: Diagnostic[]
  /** The topic of the outline's base folder, which the outline reshapes. */
  home: LayoutTopic
  /** The base folder relative to the scanned folder; '' when the base is the scanned folder or above it. */
  homeFolder: string
  /** The base folder relative to the scanned folder as written (starts with `..` when above it). */
  baseRelative: string
  /** Folder topics below the base, by folder. */
  folders: Map<string, LayoutTopic>
  /** The documents below the base, in layout order. */
  documents: string[]
  known: Set<string>
  /** Documents some entry lists. */
  referenced: Set<string>
  /** Documents already given a place. */
  used: Set<string>
  /** Topics made so far, by key. */
  topics: Map<string, LayoutTopic>
  /** The document an entry names: a file, or a folder (`guide/`) for its index page; undefined outside the folder. */
  resolvePage(written: string): string | undefined
}

/** Starts applying `outline` to the layout of the folder `root` (absolute); undefined when its base folder is not in the layout. */
export function startRun(
  layout: LayoutTopic,
  outline: NavOutline,
  root: string,
  diagnostics: Diagnostic[]
): OutlineRun | undefined {
  const baseRelative = path.relative(root, outline.base).split(path.sep).join('/')
  const homeFolder = baseRelative.startsWith('..') ? '' : baseRelative
  const home = findFolder(layout, homeFolder)
  if (!home) return undefined
  const folders = new Map<string, LayoutTopic>()
  const documents: string[] = []
  collect(home, folders, documents)
  const known = new Set(documents)
  const resolve = (file: string): string | undefined => {
    const relative = path.relative(root, path.resolve(outline.base, file)).split(path.sep).join('/')
    return relative.startsWith('..') || path.isAbsolute(relative) ? undefined : relative
  }
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
  return {
    outline,
    diagnostics,
    home,
    homeFolder,
    baseRelative,
    folders,
    documents,
    known,
    referenced,
    used: new Set(),
    topics: new Map(),
    resolvePage
  }
}

/** The folder topic of the layout whose folder is `folder` (the first in layout order); iterative, as folders nest deep. */
function findFolder(layout: LayoutTopic, folder: string): LayoutTopic | undefined {
  const stack = [layout]
  while (stack.length > 0) {
    const topic = stack.pop()!
    if (topic.folder === folder) return topic
    for (let i = topic.children.length - 1; i >= 0; i--) {
      const child = topic.children[i]!
      if (
        child.kind === 'topic' &&
        (child.folder === undefined || folder === child.folder || folder.startsWith(child.folder + '/'))
      )
        stack.push(child)
    }
  }
  return undefined
}

/** The documents below `home` (not its own body unless listed), in layout order, and the folder topics they sit in. */
function collect(home: LayoutTopic, folders: Map<string, LayoutTopic>, documents: string[]): void {
  const stack = [home]
  while (stack.length > 0) {
    const topic = stack.pop()!
    if (topic !== home && topic.folder !== undefined) folders.set(topic.folder, topic)
    if (topic.file !== undefined) documents.push(topic.file)
    // Articles and topics keep their order: an article's document is listed when its turn comes off the stack.
    for (let i = topic.children.length - 1; i >= 0; i--) {
      const child = topic.children[i]!
      if (child.kind === 'article') stack.push({kind: 'topic', key: '', children: [], file: child.file})
      else stack.push(child)
    }
  }
}
