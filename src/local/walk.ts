/**
 * Walks the folder: which directories and files take part in the sync.
 * `.kbsyncignore` (gitignore syntax) excludes paths; dot-entries and
 * `node_modules` are excluded by default. Symbolic links are followed only
 * when they resolve inside the folder, and never twice into one directory
 * (so a link loop ends).
 */
import {lstat, readdir, readFile, realpath, stat} from 'node:fs/promises'
import path from 'node:path'
import ignore, {type Ignore} from 'ignore'
import type {Diagnostic} from './diagnostic.js'
import {fileNameProblems} from './file-names.js'

/** The entries of one directory that take part. */
export interface WalkedDir {
  /** Repo-relative path (`''` for the root). */
  path: string
  /** Repo-relative paths of the `.md` files directly inside. */
  files: string[]
  /** Repo-relative paths of other files directly inside (assets, `_permissions.yml`). */
  others: string[]
  dirs: WalkedDir[]
}

/** The name of the ignore file at the root of the folder. */
export const ignoreFileName = '.kbsyncignore'

/** Loads the ignore rules of the folder at `root`, plus `extra` patterns (gitignore syntax, the config's `ignore`). */
export async function loadIgnore(root: string, extra: readonly string[] = []): Promise<Ignore> {
  const rules = ignore().add([...extra])
  try {
    rules.add(await readFile(path.join(root, ignoreFileName), 'utf8'))
  } catch {
    // No ignore file: only the defaults apply.
  }
  return rules
}

/** Whether a repo-relative path is excluded (by default or by `.kbsyncignore`). */
export function isExcluded(rules: Ignore, relative: string, isDir: boolean): boolean {
  const parts = relative.split('/')
  if (parts.some((part) => part.startsWith('.') || part === 'node_modules')) return true
  return rules.ignores(isDir ? relative + '/' : relative)
}

/** Whether `target` lies inside `root` (both absolute, real paths). */
export function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target)
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))
}

/** Walks `root` (absolute, real path) and returns the tree of taking-part entries. */
export async function walkFolder(root: string, rules: Ignore, diagnostics: Diagnostic[]): Promise<WalkedDir> {
  const visited = new Set<string>([root])
  const walk = async (relative: string, absolute: string): Promise<WalkedDir> => {
    const result: WalkedDir = {path: relative, files: [], others: [], dirs: []}
    // Directory entries carry their type: only symbolic links (and file systems that do not say) need a stat.
    const entries = (await readdir(absolute, {withFileTypes: true})).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    const names = entries.map((entry) => entry.name)
    diagnostics.push(...fileNameProblems(relative, names.filter((name) => !isExcluded(rules, relative === '' ? name : `${relative}/${name}`, false))))
    for (const entry of entries) {
      const name = entry.name
      const childRelative = relative === '' ? name : `${relative}/${name}`
      const childAbsolute = path.join(absolute, name)
      let info: {isDirectory(): boolean; isFile(): boolean} = entry
      if (entry.isSymbolicLink()) {
        let real: string
        try {
          real = await realpath(childAbsolute)
          info = await stat(real)
        } catch {
          diagnostics.push({severity: 'warning', file: childRelative, message: 'Broken symbolic link, skipped', rule: 'symlink-broken'})
          continue
        }
        if (!isInside(root, real)) {
          diagnostics.push({severity: 'warning', file: childRelative, message: 'Symbolic link points outside the folder, skipped', rule: 'symlink-outside'})
          continue
        }
        if (info.isDirectory() && visited.has(real)) {
          diagnostics.push({severity: 'warning', file: childRelative, message: 'Symbolic link loops back to a folder already scanned, skipped', rule: 'symlink-loop'})
          continue
        }
      } else if (!entry.isDirectory() && !entry.isFile()) {
        info = await lstat(childAbsolute)
      }
      if (isExcluded(rules, childRelative, info.isDirectory())) continue
      if (info.isDirectory()) {
        const real = await realpath(childAbsolute)
        if (visited.has(real)) continue
        visited.add(real)
        result.dirs.push(await walk(childRelative, childAbsolute))
      } else if (info.isFile()) {
        if (name.endsWith('.md') && !name.endsWith('.remote.md')) result.files.push(childRelative)
        else result.others.push(childRelative)
      }
    }
    return result
  }
  return walk('', root)
}
