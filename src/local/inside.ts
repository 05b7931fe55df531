/**
 * Writing inside the synced folder, whatever the folder holds. A cloned
 * repository may plant symbolic links where kbsync writes (a topic folder,
 * `_assets`, `.kbsync`, a `name.remote.md`) pointing at any file the user
 * can write; every file kbsync writes, moves or removes goes through here,
 * so none of those writes follows a link out of the folder.
 *
 * The rule, in one place:
 * - each existing level of the path is looked at with lstat, never through
 *   it; a link whose real path stays inside the folder is followed (it is
 *   the folder's own structure, not an attack), one that leaves the folder
 *   or leads nowhere is refused with an error that names it;
 * - folders are created one level at a time (a recursive mkdir would follow
 *   a link without saying);
 * - a file is written as a new temporary file (`wx`: never through a name
 *   that exists) in the real folder, then renamed over its name: a rename
 *   replaces a link there, it never writes through one. A link at that name
 *   which stays inside is so replaced by the file (its target is left as
 *   it is); one that leaves the folder is refused like any other, so that
 *   the user learns of it; appending (the state journal) refuses any link.
 *
 * Synchronous, like the state writes it serves. A planted link is the threat
 * (a folder proven real is checked again at each later write); a process
 * racing the microseconds between a check and its write is not.
 */
import {constants, lstatSync, mkdirSync, openSync, readdirSync, readlinkSync, realpathSync} from 'node:fs'
import {renameSync, rmdirSync, rmSync, statSync, writeFileSync, type Stats} from 'node:fs'
import path from 'node:path'
import {provenLevels, rememberRealFolder} from './proven-folders.js'
import {realBoundary} from '../trust/index.js'
import {isInside} from './walk.js'
import {asLocalWriteError, writingFile} from './write-failure.js'
import {temporaryBeside} from './temp-name.js'

/** A link (or a file where a folder must be) that kbsync will not write through. */
export interface RefusedLink {
  /** The link, as the user can find it (relative to the working folder when under it). */
  link: string
  /** Where it points (its real path, or its text when that leads nowhere). */
  target: string
  /** The whole sentence: what is wrong and what to do. */
  message: string
}

/** A write refused because its path goes through links that leave the folder; nothing was written. */
export class WriteOutsideError extends Error {
  override name = 'WriteOutsideError'
  constructor(readonly links: RefusedLink[]) {
    super(links.map((link) => link.message).join('\n'))
  }
}

/**
 * Checks, writing nothing, that each of `rels` (paths relative to `root`)
 * can be written without following a link out of the folder; throws one
 * `WriteOutsideError` naming every such link. Levels that do not exist yet
 * are fine: they will be created as real folders.
 */
export function checkWritesInside(root: string, rels: Iterable<string>): void {
  const folder = folderOf(root)
  const refused = new Map<string, RefusedLink>()
  // Nothing is written while checking: a folder walked once stands for every path under it (thousands share a few).
  const walked = new Map<string, string | undefined>()
  for (const rel of rels) {
    try {
      const parts = partsOf(rel)
      const key = parts.slice(0, -1).join('/')
      if (!walked.has(key)) walked.set(key, walkFolders(folder, parts.slice(0, -1), false))
      const parent = walked.get(key)
      if (parent !== undefined) checkName(folder, path.join(parent, parts.at(-1)!))
    } catch (error) {
      if (!(error instanceof WriteOutsideError)) throw error
      for (const link of error.links) refused.set(link.link, link)
    }
  }
  if (refused.size > 0) throw new WriteOutsideError([...refused.values()])
}

/** Creates the folder `relDir` of `root` (and the levels above it) as real folders inside it; returns its real absolute path. */
export function ensureDirInside(root: string, relDir: string): string {
  return writingFile(root, relDir, () => walkFolders(folderOf(root), partsOf(relDir, true), true)!)
}

/**
 * The real absolute path at which to write the file `rel` of `root`: its
 * folder is created inside, and the name is not a link that leaves the
 * folder. For a writer that writes a new temporary file beside it and
 * renames it over (a download does).
 */
export function pathToWriteInside(root: string, rel: string): string {
  // A full disk or a read-only file system: the run's fault, naming the file (`write-failure.ts`).
  return writingFile(root, rel, () => writableTarget(folderOf(root), rel))
}

/** Writes `data` to the file `rel` of `root` (temporary file + rename); a failed write leaves no temporary file. */
export function writeFileInside(root: string, rel: string, data: string | Uint8Array): void {
  const target = pathToWriteInside(root, rel)
  const temporary = temporaryBeside(target)
  try {
    writeFileSync(temporary, data, {flag: 'wx'})
    renameSync(temporary, target)
  } catch (error) {
    rmSync(temporary, {force: true})
    throw asLocalWriteError(error, root, rel)
  }
}

/**
 * Opens the file `rel` of `root` for appending (created when missing); a
 * link at its name is refused, even one inside the folder. With
 * `positional`, without O_APPEND (Linux would append a positioned write):
 * the writer places each write itself (the state journal writes into room
 * it reserved ahead).
 */
export function openAppendInside(root: string, rel: string, positional = false): number {
  const target = pathToWriteInside(root, rel)
  const mode = positional ? 0 : constants.O_APPEND
  try {
    // Appending cannot replace a link as a rename does: O_NOFOLLOW refuses one, even one planted since the check.
    return openSync(target, constants.O_WRONLY | mode | constants.O_CREAT | constants.O_NOFOLLOW, 0o666)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw asLocalWriteError(error, root, rel)
    const link = readlinkSync(target)
    throw refused(
      folderOf(root),
      target,
      link,
      `is a symbolic link to ${link}: kbsync appends only to real files; remove it`
    )
  }
}

/** Moves `from` to `to` (both relative to `root`), creating the folders `to` needs; a link at `from` moves as a link. */
export function renameInside(root: string, from: string, to: string): void {
  const folder = folderOf(root)
  const source = existingInside(folder, from)
  if (source === undefined)
    throw Object.assign(new Error(`${shown(folder, path.join(folder.real, from))} does not exist`), {code: 'ENOENT'})
  writingFile(root, to, () => renameSync(source, writableTarget(folder, to)))
}

/** Whether `rel` of `root` exists, looked at without following links out of the folder. */
export function existsInside(root: string, rel: string): boolean {
  return existingInside(folderOf(root), rel) !== undefined
}

/** Removes the file or folder `rel` of `root` if present (a link is removed, not what it points to). */
export function removeInside(root: string, rel: string): void {
  const target = existingInside(folderOf(root), rel)
  if (target !== undefined) rmSync(target, {recursive: true, force: true})
}

/** Removes the folder `rel` of `root` when it is there and empty. */
export function removeEmptyFolderInside(root: string, rel: string): void {
  const target = existingInside(folderOf(root), rel)
  if (target === undefined || !lstatSync(target).isDirectory()) return
  if (readdirSync(target).length === 0) rmdirSync(target)
}

/** The synced folder: as the user named it (for messages), and its real path (for every check). */
interface Folder {
  given: string
  real: string
}

/** The folder `dir` (itself reached through links or not: which folder to sync is the user's choice). */
function folderOf(dir: string): Folder {
  const given = path.resolve(dir)
  // Its real path found once, then checked at each write to lead to the same folder (`trust/real-boundary.ts`).
  return {given, real: realBoundary(given)}
}

/** The levels of a relative path; `..`, absolute paths and (unless `mayBeEmpty`) the folder itself are refused. */
function partsOf(rel: string, mayBeEmpty = false): string[] {
  const parts = rel.split(/[\\/]/).filter((part) => part !== '' && part !== '.')
  if (path.isAbsolute(rel) || parts.includes('..') || (parts.length === 0 && !mayBeEmpty)) {
    throw new Error(`kbsync writes only inside the folder, and ${JSON.stringify(rel)} is not a path inside it`)
  }
  return parts
}

/**
 * Goes down `parts` from the real root, one level at a time, and returns
 * the real path reached. A missing level is created when `create`, else the
 * walk stops there (undefined: nothing below exists to go through).
 */
function walkFolders(folder: Folder, parts: string[], create: boolean): string | undefined {
  // Levels proven real earlier in the run are checked at once, not one lstat each (`proven-folders.ts`).
  const start = provenLevels(folder.real, parts)
  let current = start === 0 ? folder.real : path.join(folder.real, ...parts.slice(0, start))
  let rel = parts.slice(0, start).join('/')
  let real = true
  for (const part of parts.slice(start)) {
    const next = path.join(current, part)
    let info = lstatOrUndefined(next)
    if (info === undefined) {
      if (!create) return undefined
      try {
        mkdirSync(next)
      } catch (error) {
        // Made by a concurrent write of the same run: looked at below like any other.
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
      info = lstatSync(next)
    }
    rel = rel === '' ? part : `${rel}/${part}`
    if (info.isSymbolicLink()) {
      real = false
      current = followInside(folder, next, 'folder')
      if (!statSync(current).isDirectory()) return notAFolder(folder, next, create)
    } else if (info.isDirectory()) {
      current = next
      if (real) rememberRealFolder(folder.real, rel)
    } else {
      return notAFolder(folder, next, create)
    }
  }
  return current
}

/** The real path to write `rel` at: its folders made inside, its name not a link that leaves. */
function writableTarget(folder: Folder, rel: string): string {
  const parts = partsOf(rel)
  const target = path.join(walkFolders(folder, parts.slice(0, -1), true)!, parts.at(-1)!)
  checkName(folder, target)
  return target
}

/** Throws when the name `target` (in a real folder) is a link that leaves the folder or leads nowhere. */
function checkName(folder: Folder, target: string): void {
  if (lstatOrUndefined(target)?.isSymbolicLink()) followInside(folder, target, 'file')
}

/** The real path of an existing `rel` (not following a link at its last level), or undefined when it is not there. */
function existingInside(folder: Folder, rel: string): string | undefined {
  const parts = partsOf(rel)
  const parent = walkFolders(folder, parts.slice(0, -1), false)
  if (parent === undefined) return undefined
  const target = path.join(parent, parts.at(-1)!)
  return lstatOrUndefined(target) === undefined ? undefined : target
}

/** The real path of the link `link` when it stays inside the folder; a `WriteOutsideError` naming it otherwise. */
function followInside(folder: Folder, link: string, kind: 'folder' | 'file'): string {
  let real: string
  try {
    real = realpathSync.native(link)
  } catch {
    const target = readlinkSync(link)
    throw refused(
      folder,
      link,
      target,
      `is a symbolic link to ${target}, which does not exist: kbsync does not write through links it cannot follow; remove it`
    )
  }
  if (isInside(folder.real, real)) return real
  const fix = kind === 'folder' ? 'replace it with a real folder' : 'remove it, and kbsync writes a real file there'
  throw refused(
    folder,
    link,
    real,
    `is a symbolic link to ${real}, outside the folder: kbsync does not write through links that leave the folder; ${fix}`
  )
}

function refused(folder: Folder, link: string, target: string, sentence: string): WriteOutsideError {
  const name = shown(folder, link)
  return new WriteOutsideError([{link: name, target, message: `${name} ${sentence}`}])
}

/** A file where a folder must be: an error when about to write, the end of the walk when only looking. */
function notAFolder(folder: Folder, file: string, create: boolean): undefined {
  if (create) throw new Error(`${shown(folder, file)} is a file where kbsync needs a folder; move it away`)
  return undefined
}

/** A path (real, inside the folder) as the user finds it: under the folder as named, relative to the working folder when under it. */
function shown(folder: Folder, file: string): string {
  const named = isInside(folder.real, file) ? path.join(folder.given, path.relative(folder.real, file)) : file
  const relative = path.relative(process.cwd(), named)
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : named
}

function lstatOrUndefined(file: string): Stats | undefined {
  // No exception for a missing entry: most names a pull writes do not exist yet, and building an error each time cost half the check.
  return lstatSync(file, {throwIfNoEntry: false})
}
