/**
 * Walks the folder: which directories and files take part in the sync.
 * `.kbsyncignore` (gitignore syntax) excludes paths; dot-entries and
 * `node_modules` are excluded by default. A symbolic link to a file is
 * followed only when the file lies inside the folder and is not excluded
 * itself; a link to a folder is never followed (a folder inside is synced as
 * itself, one outside is not the folder's to publish), so no loop of links
 * (`self -> .`, `a -> b -> a`) is ever walked. Each skipped link is a warning;
 * a folder that cannot be read is an error (skipping it would let `--prune`
 * delete what it holds on the platform). The folder's watchers follow the
 * same rules (`watch.ts`).
 */
import {readdirSync, type Dirent} from 'node:fs'
import {lstat, realpath, stat} from 'node:fs/promises'
import path from 'node:path'
import ignore, {type Ignore} from 'ignore'
import type {Diagnostic} from './diagnostic.js'
import {fileNameProblems, isDocumentName} from './file-names.js'
import {timeSlices} from './time-slices.js'
// The trust modules themselves, not trust/index.ts: some trust rules use the walk's isInside, and the index would close a cycle.
import {isInside} from '../trust/paths.js'
import {maxIgnoreFileBytes} from '../trust/publishable.js'
import {ReadRefusedError, readTextInside} from '../trust/read.js'
import {realPathSync} from '../trust/real-path.js'

/** The entries of one directory that take part. */
export interface WalkedDir {
  /** Repo-relative path (`''` for the root). */
  path: string
  /** Repo-relative paths of the documents (`.md` and `.mdx` files) directly inside. */
  files: string[]
  /** Repo-relative paths of other files directly inside (assets, `_permissions.yml`). */
  others: string[]
  dirs: WalkedDir[]
  /** Whether the folder holds a `.gitkeep` (a dot-file, so no entry of its own): see `kept-folder.ts`. */
  kept?: boolean
}

/** The file that keeps a folder in git (git keeps no empty folder): a pull writes it into a topic's folder left empty. */
export const keepFileName = '.gitkeep'

/** The rules of the walk's diagnostics about entries it skipped: each names the entry, and a watcher says it once. */
const skipRules: ReadonlySet<string> = new Set([
  'symlink-broken',
  'symlink-loop',
  'symlink-outside',
  'symlink-folder',
  'symlink-ignored',
  'unreadable'
])

/** Whether `d` is the walk's word about an entry it skipped (a link it does not follow, a folder it may not read). */
export function isSkipNotice(d: Diagnostic): boolean {
  return d.rule !== undefined && skipRules.has(d.rule)
}

/** The name of the ignore file at the root of the folder. */
export const ignoreFileName = '.kbsyncignore'

/**
 * Loads the ignore rules of the folder at `root`, plus `extra` patterns
 * (gitignore syntax, the config's `ignore`). The ignore file is read by the
 * trust rule of reads (a FIFO there would block the walk, a link could lead
 * out of the folder): one that is not a regular file of the folder under
 * 1 MB is an error naming it.
 */
export async function loadIgnore(root: string, extra: readonly string[] = []): Promise<Ignore> {
  const rules = ignore().add([...extra])
  try {
    rules.add(await readTextInside(ignoreFileName, {boundary: root, maxBytes: maxIgnoreFileBytes}))
  } catch (error) {
    // No ignore file: only the defaults apply.
    if (!(error instanceof ReadRefusedError) || error.reason !== 'missing') throw error
  }
  return rules
}

/** Whether a repo-relative path is excluded (by default or by `.kbsyncignore`). */
export function isExcluded(rules: Ignore, relative: string, isDir: boolean): boolean {
  const parts = relative.split('/')
  if (parts.some((part) => part.startsWith('.') || part === 'node_modules')) return true
  return rules.ignores(isDir ? relative + '/' : relative)
}

// Whether a path lies inside a folder: the rule lives in the trust folder, kept exported here for the callers of the walk.
export {isInside}

/** Walks `root` (absolute, real path) and returns the tree of taking-part entries. */
export async function walkFolder(root: string, rules: Ignore, diagnostics: Diagnostic[]): Promise<WalkedDir> {
  const walk: Walk = {root, rules, diagnostics, visited: new Set<string>([root]), nextSlice: timeSlices()}
  return (await walkDir(walk, '', root))!
}

/** What every step of one walk shares. */
interface Walk {
  /** The folder walked (absolute, real path). */
  root: string
  rules: Ignore
  diagnostics: Diagnostic[]
  /** Real paths of the folders walked so far: a folder reached twice is walked once. */
  visited: Set<string>
  /** Lets the event loop turn between slices of the walk's synchronous listings (`listFolder`). */
  nextSlice: () => Promise<void>
}

/** The type of an entry, as a directory entry or a stat tells it. */
interface EntryType {
  isDirectory(): boolean
  isFile(): boolean
}

/** The repo-relative path of the entry `name` of the folder `relative`. */
function childPath(relative: string, name: string): string {
  return relative === '' ? name : `${relative}/${name}`
}

/** Walks the folder `relative` (at `absolute`); undefined, with an error, when it may not be read. */
async function walkDir(walk: Walk, relative: string, absolute: string): Promise<WalkedDir | undefined> {
  const result: WalkedDir = {path: relative, files: [], others: [], dirs: []}
  const listed = await listFolder(walk, absolute, relative === '')
  if (!listed) {
    walk.diagnostics.push({
      severity: 'error',
      file: relative,
      message: 'Folder cannot be read (permission denied), so what it holds cannot be planned',
      hint: 'Make it readable, or list it in .kbsyncignore',
      rule: 'unreadable'
    })
    return undefined
  }
  const entries = listed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  const names = entries.map((entry) => entry.name)
  walk.diagnostics.push(
    ...fileNameProblems(
      relative,
      names.filter((name) => !isExcluded(walk.rules, childPath(relative, name), false))
    )
  )
  // One entry at a time, in name order: the diagnostics and the tree come out in the same order on every run.
  for (const entry of entries) await addEntry(walk, result, entry, absolute)
  return result
}

/** Adds the entry to `result` (the folder at `absolute`) when it takes part: a file, or a folder walked in turn. */
async function addEntry(walk: Walk, result: WalkedDir, entry: Dirent, absolute: string): Promise<void> {
  const childRelative = childPath(result.path, entry.name)
  const childAbsolute = path.join(absolute, entry.name)
  if (entry.name === keepFileName && entry.isFile()) result.kept = true
  const info = await entryType(walk, entry, childRelative, childAbsolute, absolute)
  if (!info || isExcluded(walk.rules, childRelative, info.isDirectory())) return
  if (info.isDirectory()) {
    // One lookup of the whole path: `realpath` resolves level by level, so a folder chain 1,400 deep cost 0.5 s a folder.
    const real = realPathSync(childAbsolute)
    if (walk.visited.has(real)) return
    walk.visited.add(real)
    const walked = await walkDir(walk, childRelative, childAbsolute)
    if (walked) result.dirs.push(walked)
  } else if (info.isFile()) {
    if (isDocumentName(entry.name)) result.files.push(childRelative)
    else result.others.push(childRelative)
  }
}

/** The type of the entry, a followed link's being its target's; undefined when the entry is a link not followed. */
async function entryType(
  walk: Walk,
  entry: Dirent,
  childRelative: string,
  childAbsolute: string,
  absolute: string
): Promise<EntryType | undefined> {
  // Directory entries carry their type: only symbolic links (and file systems that do not say) need a stat.
  if (entry.isSymbolicLink()) return followLink(walk, childRelative, childAbsolute, absolute)
  if (!entry.isDirectory() && !entry.isFile()) return lstat(childAbsolute)
  return entry
}

/** The type of the link's target when the link is followed; undefined, with a warning, when it is skipped. */
async function followLink(
  walk: Walk,
  childRelative: string,
  childAbsolute: string,
  absolute: string
): Promise<EntryType | undefined> {
  let real: string
  let info: EntryType
  try {
    real = await realpath(childAbsolute)
    info = await stat(real)
  } catch (error) {
    walk.diagnostics.push(
      (error as NodeJS.ErrnoException).code === 'ELOOP'
        ? {
            severity: 'warning',
            file: childRelative,
            message: 'Symbolic link loops (it leads back to itself through other links), skipped',
            rule: 'symlink-loop'
          }
        : {
            severity: 'warning',
            file: childRelative,
            message: 'Broken symbolic link, skipped',
            rule: 'symlink-broken'
          }
    )
    return undefined
  }
  const skipped = linkSkipped(walk, childRelative, real, info.isDirectory(), absolute)
  if (skipped) {
    walk.diagnostics.push(skipped)
    return undefined
  }
  return info
}

/**
 * Why the link `childRelative` (in the folder at `absolute`) to the existing
 * `real` is skipped, as the warning that says so; undefined when it is followed.
 */
function linkSkipped(
  walk: Walk,
  childRelative: string,
  real: string,
  isDirectory: boolean,
  absolute: string
): Diagnostic | undefined {
  if (!isInside(walk.root, real)) {
    return {
      severity: 'warning',
      file: childRelative,
      message: 'Symbolic link points outside the folder, skipped',
      rule: 'symlink-outside'
    }
  }
  const target = path.relative(walk.root, real).split(path.sep).join('/')
  if (isDirectory) {
    // The folder it points to is synced as itself; following the link too would publish it twice.
    return isInside(real, absolute)
      ? {
          severity: 'warning',
          file: childRelative,
          message: 'Symbolic link loops back to a folder that contains it, skipped',
          rule: 'symlink-loop'
        }
      : {
          severity: 'warning',
          file: childRelative,
          message: `Symbolic link to the folder ${target || '.'} inside the synced folder, skipped: that folder is synced as itself`,
          hint: 'Link to its articles instead, or move the folder here',
          rule: 'symlink-folder'
        }
  }
  if (isExcluded(walk.rules, target, false)) {
    return {
      severity: 'warning',
      file: childRelative,
      message: `Symbolic link to ${target}, which is ignored, skipped`,
      hint: `Remove the link, or stop ignoring ${target}`,
      rule: 'symlink-ignored'
    }
  }
  return undefined
}

/**
 * The entries of a folder; undefined when permission to read a subfolder is denied (the root's own failure is
 * thrown). Listed synchronously, in slices of about 10 ms with a turn of the event loop between them (as
 * `readFiles` reads): an asynchronous listing waits on libuv's thread pool, once per folder, one folder after
 * the other, which made the walk of a no-op run over 2,000 folders a chain of 2,000 waits.
 */
async function listFolder(walk: Walk, absolute: string, isRoot: boolean): Promise<Dirent[] | undefined> {
  await walk.nextSlice()
  try {
    return readdirSync(absolute, {withFileTypes: true})
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (isRoot || (code !== 'EACCES' && code !== 'EPERM')) throw error
    return undefined
  }
}
