/**
 * Temporary files a killed run left. Every file kbsync writes goes through a
 * temporary file renamed into place, and a run stopped by `kill -9` or a
 * power cut between the two leaves it where it was: beside a document, where
 * `git add -A` would commit it. The next push, pull or status in the folder
 * removes those of runs that are gone, and only those:
 *
 * - the names say whose they are: each scheme carries the writer's process
 *   id (`kbsyncTemp`);
 * - a file whose process no longer exists is removed;
 * - a file whose process id is alive is kept, unless that process started
 *   after the file was last written (the id was reused by another program:
 *   on Linux, read from `/proc`); where the start cannot be read, it is kept;
 * - files of an older kbsync, whose names carry no process id, are removed
 *   once an hour old (a live download writes to its file all the time).
 *
 * The walk stays inside the folder: it never follows a symbolic link (to a
 * folder or a file; a link is never removed either), enters no dot-folder but
 * `.kbsync/`, and skips `node_modules` and what `.kbsyncignore` excludes
 * (kbsync writes nothing there).
 */
import {readdirSync, type Dirent} from 'node:fs'
import {readFile, lstat, rm} from 'node:fs/promises'
import path from 'node:path'
import type {Ignore} from 'ignore'
import {timeSlices} from './time-slices.js'
import {isExcluded, loadIgnore} from './walk.js'

/** What a file name says about it: written by the process `pid` (undefined: a name of an older kbsync, without one). */
export interface TempName {
  pid?: number
}

/** Where each scheme is found, and its name: `.NAME.PID.N.tmp` anywhere, and the others in `.kbsync/`. */
const schemes: ReadonlyArray<{pattern: RegExp; where: 'anywhere' | 'state' | 'downloads'}> = [
  // `writeFileInside` (local/inside.ts): documents, permission files, the state file.
  {pattern: /^\..+\.(\d{1,10})\.\d{1,15}\.tmp$/, where: 'anywhere'},
  // Downloads (api/download.ts): the file being received, beside its destination.
  {pattern: /^\..+\.(\d{1,10})\.[0-9a-f]{12}\.part$/, where: 'anywhere'},
  // A download of an older kbsync: no process id.
  {pattern: /^\..+\.[0-9a-f]{12}\.part$/, where: 'anywhere'},
  // The embedded server's record (cli/embedded/record.ts), in `.kbsync/`.
  {pattern: /^.+\.(\d{1,10})\.[0-9a-f]{8}\.tmp$/, where: 'state'},
  // Early downloads of a pull (sync/pull/prefetch.ts): `.kbsync/downloads/PID.N`, and `N` of an older kbsync.
  {pattern: /^(\d{1,10})\.\d{1,15}$/, where: 'downloads'},
  {pattern: /^\d{1,15}$/, where: 'downloads'}
]

/** The folders kbsync keeps its own files in, relative to the folder. */
const stateFolder = '.kbsync'
const downloadsFolder = '.kbsync/downloads'

/** How long a temporary file without a process id in its name is left alone. */
const legacyAgeMs = 60 * 60 * 1000

/** Slack on a process's start time (its clock ticks, the boot time's whole seconds). */
const startSlackMs = 2000

/**
 * Whether `name`, found in the folder `where` (relative to the folder), is
 * a temporary file of kbsync, and whose (pure).
 */
export function kbsyncTemp(name: string, where: string): TempName | undefined {
  const place = where === downloadsFolder ? 'downloads' : where === stateFolder ? 'state' : 'other'
  for (const scheme of schemes) {
    if (scheme.where === 'downloads' ? place !== 'downloads' : scheme.where === 'state' && place !== 'state') continue
    const match = scheme.pattern.exec(name)
    if (match) return match[1] === undefined ? {} : {pid: Number(match[1])}
  }
  return undefined
}

/** When the process `pid` started (ms since the epoch); undefined when it does not exist, or that cannot be read. */
export type ProcessStart = (pid: number) => Promise<{alive: boolean; startedAt?: number}>

/**
 * Whether the temporary file `temp` (last written at `mtimeMs`) is of a
 * run that is gone. `now` is this run's clock.
 */
export async function isStale(temp: TempName, mtimeMs: number, now: number, started: ProcessStart): Promise<boolean> {
  if (temp.pid === undefined) return now - mtimeMs > legacyAgeMs
  const writer = await started(temp.pid)
  if (!writer.alive) return true
  // Alive: another program that reused the id (it started after the file was written), or a run writing it now.
  return writer.startedAt !== undefined && mtimeMs < writer.startedAt - startSlackMs
}

/** Removes the temporary files of runs that are gone from the folder `root` (absolute); returns their paths (relative). */
export async function removeStaleTemps(
  root: string,
  options: {ignore?: readonly string[]; started?: ProcessStart} = {}
): Promise<string[]> {
  const rules = await loadIgnore(root, options.ignore ?? [])
  const removed: string[] = []
  const sweep: Sweep = {
    root,
    rules,
    removed,
    now: Date.now(),
    started: options.started ?? processStart,
    nextSlice: timeSlices()
  }
  await sweepFolder(sweep, '')
  return removed
}

interface Sweep {
  root: string
  rules: Ignore
  removed: string[]
  now: number
  started: ProcessStart
  /** Lets the event loop turn between slices of the sweep's synchronous listings. */
  nextSlice: () => Promise<void>
}

/** Sweeps one folder (relative to the root) and the folders in it that kbsync writes in. */
async function sweepFolder(sweep: Sweep, relative: string): Promise<void> {
  // Listed synchronously, in slices of about 10 ms (as the scan's walk): asynchronously, every run of the CLI
  // waited on the thread pool once per folder of the tree, one folder after the other, before it began.
  await sweep.nextSlice()
  let entries: Dirent[]
  try {
    entries = readdirSync(path.join(sweep.root, relative), {withFileTypes: true})
  } catch {
    // Gone, or unreadable: the scan reports an unreadable folder; nothing of ours can be removed there.
    return
  }
  for (const entry of entries) {
    const child = relative === '' ? entry.name : `${relative}/${entry.name}`
    // A Dirent of readdir is the entry itself: a symbolic link is neither a file nor a folder here.
    if (entry.isDirectory()) {
      if (entersFolder(sweep.rules, child)) await sweepFolder(sweep, child)
    } else if (entry.isFile()) {
      const temp = kbsyncTemp(entry.name, relative)
      if (temp) await removeIfStale(sweep, child, temp)
    }
  }
}

/** Whether the sweep enters the folder `relative`: `.kbsync/` and its downloads, and folders the scan walks. */
function entersFolder(rules: Ignore, relative: string): boolean {
  if (relative === stateFolder || relative === downloadsFolder) return true
  return !isExcluded(rules, relative, true)
}

/** Removes the file `relative` when it is of a run that is gone (and still a regular file). */
async function removeIfStale(sweep: Sweep, relative: string, temp: TempName): Promise<void> {
  const absolute = path.join(sweep.root, relative)
  const info = await lstat(absolute).catch(() => undefined)
  if (!info?.isFile()) return
  if (!(await isStale(temp, info.mtimeMs, sweep.now, sweep.started))) return
  try {
    await rm(absolute)
    sweep.removed.push(relative)
  } catch {
    // Removed meanwhile, or not ours to remove: the next run looks again.
  }
}

/** Clock ticks per second of `/proc/PID/stat` (USER_HZ: 100 on every Linux architecture Node runs on). */
const ticksPerSecond = 100

/** Whether `pid` is alive, and when it started (Linux: from `/proc`). */
export async function processStart(pid: number): Promise<{alive: boolean; startedAt?: number}> {
  if (pid === process.pid) return {alive: true, startedAt: Date.now() - process.uptime() * 1000}
  if (!isAlive(pid)) return {alive: false}
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may hold spaces and parentheses: the fields after it start after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const ticks = Number(fields[19])
    const boot = /^btime (\d+)$/m.exec(await readFile('/proc/stat', 'utf8'))
    if (!Number.isFinite(ticks) || !boot) return {alive: true}
    return {alive: true, startedAt: Number(boot[1]) * 1000 + (ticks / ticksPerSecond) * 1000}
  } catch {
    return {alive: true}
  }
}

/** Whether a process `pid` exists (one of another user counts: it is alive). */
function isAlive(pid: number): boolean {
  // Process ids are positive 32-bit numbers: a larger one names no process.
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid > 0x7fffffff) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
