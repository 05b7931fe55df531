/**
 * Watching the folder, by the walk's rules: a watcher reacts to what a scan
 * reads and survives what a scan skips. Links are watched as links, never
 * followed (the walk never follows a link to a folder, and a linked file
 * inside the folder is watched as itself), so a loop of links costs nothing;
 * a folder it may not read is left out (the scan reports it); any other
 * watcher error is a warning, given once, and watching goes on.
 */
import path from 'node:path'
import ignore from 'ignore'
import type {Diagnostic} from './diagnostic.js'
import {ignoreFileName, isExcluded, isSkipNotice, loadIgnore} from './walk.js'

/** Decides whether a path (relative, with `/`) is worth reacting to. */
export interface PathFilter {
  relevant(relative: string, isDir?: boolean): boolean
  /** Re-reads `.kbsyncignore` (after it changed). */
  reload(): Promise<void>
}

/**
 * The filter of the folder `root`: what the scanner takes part in (no
 * dot-entries, no `node_modules`, `.kbsyncignore` honoured, which itself
 * counts) minus the extra gitignore-style `patterns`; never the `.remote.md`
 * files conflicts leave, which would loop.
 */
export async function createPathFilter(root: string, patterns: readonly string[] = []): Promise<PathFilter> {
  const extra = ignore().add([...patterns])
  let rules = await loadIgnore(root)
  return {
    relevant(relative, isDir = false) {
      if (relative === '' || relative === ignoreFileName) return true
      if (relative.endsWith('.remote.md')) return false
      if (isExcluded(rules, relative, isDir)) return false
      return !extra.ignores(isDir ? relative + '/' : relative)
    },
    async reload() {
      rules = await loadIgnore(root)
    }
  }
}

/** What changed, as chokidar names it. */
export type TreeEventKind = 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir'

/** Options of `watchTree`. */
export interface TreeWatchOptions {
  /** Paths it does not find relevant are not watched. */
  filter: PathFilter
  /** One file-system event, the path relative to the folder with `/`. */
  onEvent(kind: TreeEventKind, relative: string): void
  /** A problem of the watcher (too many watches, a folder gone); each distinct one once. */
  onWarning(message: string): void
}

/** A running watcher. */
export interface TreeWatcher {
  close(): Promise<void>
}

/** Watches the folder `root`; resolves once the first look at the tree is done. */
export async function watchTree(root: string, options: TreeWatchOptions): Promise<TreeWatcher> {
  const relativeOf = (file: string) => path.relative(root, file).split(path.sep).join('/')
  // chokidar is loaded by the first watch: only watch and preview need it.
  const {watch} = await import('chokidar')
  const watcher = watch(root, {
    ignoreInitial: true,
    followSymlinks: false,
    // The scan names an unreadable folder (it blocks the plan); the watcher just leaves it out.
    ignorePermissionErrors: true,
    ignored: (file: string, stats?: {isDirectory(): boolean}) =>
      !options.filter.relevant(relativeOf(file), stats?.isDirectory() ?? false)
  })
  let ready = false
  // chokidar reports the links it finds on its first look even with `ignoreInitial`: they are no change.
  watcher.on('all', (kind: string, file: string) => {
    if (ready) options.onEvent(kind as TreeEventKind, relativeOf(file))
  })
  const warned = new Set<string>()
  watcher.on('error', (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error)
    if (warned.has(message)) return
    warned.add(message)
    options.onWarning(`watcher: ${message}`)
  })
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()))
  ready = true
  return {close: () => watcher.close()}
}

/**
 * A predicate for a watcher's rescans: true for a skip notice of the scan
 * (`isSkipNotice`) the first time its rule and entry are seen, false for
 * it on every later scan and for any other diagnostic.
 */
export function firstSkipNotices(): (d: Diagnostic) => boolean {
  const seen = new Set<string>()
  return (d) => {
    const key = `${d.rule}\0${d.file ?? ''}`
    if (!isSkipNotice(d) || seen.has(key)) return false
    seen.add(key)
    return true
  }
}
