/**
 * What the watcher has not reported (yet) of a batch's new folders. chokidar
 * reads a folder that appears and only then watches it: a file created in
 * between is never reported (until something else in that folder changes),
 * and under load its reports of a folder being read can pause for longer than
 * the debounce, cutting a burst. So a batch is completed from the disk before
 * it is pushed: every file and folder under a new folder that the batch does
 * not name joins it (the push reads the whole folder anyway; this makes the
 * stability check, the status line and the saved files' messages cover them).
 * The watcher's late reports of such an entry, unchanged since it was
 * pushed, are echoes and cost no second push.
 */
import {readdir} from 'node:fs/promises'
import path from 'node:path'
import type {Batch, ChangeEvent} from './batch.js'
import {signature} from './stable.js'

/**
 * The entries under the batch's new folders (`addDir`, as on disk now, walked
 * iteratively; links are not followed) that the batch does not name and
 * `relevant` takes, as `add`/`addDir` changes marked `unreported`.
 */
export async function unreportedEntries(
  root: string,
  batch: Batch,
  relevant: (relative: string, isDir: boolean) => boolean
): Promise<ChangeEvent[]> {
  const named = new Set(batch.changes.map((c) => c.path))
  const folders = batch.changes.filter((c) => c.kind === 'addDir').map((c) => c.path)
  const walked = new Set(folders)
  const found: ChangeEvent[] = []
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    let entries
    try {
      entries = await readdir(path.join(root, folder), {withFileTypes: true})
    } catch {
      continue // gone or unreadable since: the scan says so
    }
    for (const entry of entries) {
      const isDir = entry.isDirectory()
      const relative = `${folder}/${entry.name}`
      if ((!isDir && !entry.isFile()) || !relevant(relative, isDir)) continue
      if (isDir && !walked.has(relative)) {
        walked.add(relative)
        folders.push(relative)
      }
      if (!named.has(relative)) found.push({kind: isDir ? 'addDir' : 'add', path: relative, unreported: true})
    }
  }
  return found
}

/** How long a pushed unreported entry waits for the watcher's late report of it. */
const echoWindowMs = 60_000

/** The unreported entries a push took, by path: their signature then, until the watcher reports them. */
export interface Echoes {
  /** Records the batch's unreported entries (signed before the push read them) once their push succeeded. */
  remember(signed: ReadonlyMap<string, string>): void
  /** The batch without the late reports of remembered entries that did not change since (each path answers once). */
  drop(root: string, batch: Batch): Promise<Batch>
}

/** Signatures (`size:mtime`) of the batch's unreported entries, taken before the push reads them. */
export async function signUnreported(root: string, batch: Batch): Promise<Map<string, string>> {
  const unreported = batch.changes.filter((c) => c.unreported)
  const keys = await Promise.all(unreported.map((c) => signature(path.join(root, c.path))))
  return new Map(unreported.map((c, i) => [c.path, keys[i]!.key]))
}

/** A session's echoes. */
export function echoes(now: () => number = Date.now): Echoes {
  const waiting = new Map<string, {key: string; until: number}>()
  return {
    remember(signed) {
      const until = now() + echoWindowMs
      for (const [file, key] of signed) waiting.set(file, {key, until})
    },
    async drop(root, batch) {
      if (waiting.size === 0) return batch
      const time = now()
      const kept: ChangeEvent[] = []
      for (const change of batch.changes) {
        const echo = waiting.get(change.path)
        waiting.delete(change.path)
        // Unchanged (size and mtime) since it was signed: what the push read. Gone or changed: a change.
        const late = echo !== undefined && echo.until > time && change.kind !== 'sync'
        if (!late || (await signature(path.join(root, change.path))).key !== echo.key) kept.push(change)
      }
      for (const [file, echo] of waiting) if (echo.until <= time) waiting.delete(file)
      return {events: batch.events, changes: kept}
    }
  }
}

/**
 * The batch to push for the watcher's `reported` one: without the echoes,
 * with the unreported entries under its new folders; undefined when nothing
 * but echoes is left.
 */
export async function completeBatch(
  root: string,
  reported: Batch,
  echoed: Echoes,
  relevant: (relative: string, isDir: boolean) => boolean
): Promise<Batch | undefined> {
  const fresh = await echoed.drop(root, reported)
  if (fresh.changes.length === 0) return undefined
  return {events: fresh.events, changes: [...fresh.changes, ...(await unreportedEntries(root, fresh, relevant))]}
}
