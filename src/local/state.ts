/**
 * The sync state, `.kbsync/state.json`: what kbsync last pushed for each
 * path, and the remote item it maps to. It makes a no-op run cheap and lets
 * web edits be detected; the engine stays correct without it (it then
 * matches by `kb_id` and title, and compares bodies).
 *
 * Saved after every step (the whole file atomically at the start and end
 * of a run, and whenever the journal has outgrown it, each step's entries
 * appended to `.kbsync/state.journal` in between; the whole file is
 * streamed to disk, `state-writer.ts`, never built as one string), and a "create intended" entry is saved before each create, so
 * a crash at any moment never leaves a state that points at nothing or
 * forgets an item.
 *
 * The state is that of one knowledge base (`state-target.ts`): the file
 * keeps each target's apart, and a run reads and writes only its own
 * (`state-load.ts`); the others are written back as they were.
 */
import {randomUUID} from 'node:crypto'
import {closeSync, fstatSync, ftruncateSync, writeSync} from 'node:fs'
import path from 'node:path'
import type {AssetEntry, StateEntry, SyncState} from './state-types.js'
import {openAppendInside, writeFileInside} from './inside.js'
import {journalFile, stateFile} from './state-load.js'
import {writeJsonInside} from './state-writer.js'
import {asLocalWriteError, LocalWriteError} from './write-failure.js'

export {emptyState, loadState, stateSchemaVersion, type LoadedState} from './state-load.js'
export type {AssetEntry, StateEntry, SyncState, TargetRecord, TargetState} from './state-types.js'

/** The files the state is kept in, relative to the folder. */
export const stateFiles: readonly string[] = [stateFile, journalFile]

/**
 * The room the journal keeps written ahead of its last line (spaces, which
 * a replay skips), so that the record of a platform write whose answer is
 * in hand does not need a new block of a disk that has just filled up: the
 * room is topped up by `reserveChunk` once less than `reserveLow` is left,
 * and when topping up fails the lines of the writes in flight (a few
 * hundred bytes each) still fit. Cut off when the journal is closed.
 */
const reserveChunk = 64 * 1024
const reserveLow = 32 * 1024
const padding = Buffer.alloc(reserveChunk, ' ')

/**
 * The journal is folded into a whole write once it holds more than the
 * state file itself (and at least this much): a long run's journal stays
 * bounded by the state's size, and the rewrites cost no more, in all, than
 * the appends they fold in.
 */
const journalFoldMin = 1024 * 1024

/** Path of the state file for the folder `dir`. */
export function statePath(dir: string): string {
  return path.join(dir, stateFile)
}

/**
 * Keeps the state of one folder on disk. `save()` writes the whole state
 * (temporary file + rename); during a run, the steps record what they change
 * (`setItem`, `setAsset`, `touchItem`) and `saveChanges()` appends just
 * those entries to the journal beside it, so a step costs a line, not a
 * rewrite of a state that grows with the tree. Loading replays the journal
 * over the state it was started for. Writes are serialised; concurrent
 * callers share a write that holds their change.
 */
export class StateStore {
  readonly state: SyncState
  private readonly dir: string
  private chain: Promise<void> = Promise.resolve()
  private queued: Promise<void> | undefined
  /** Whole writes queued or running: appends wait for them (the journal is being replaced). */
  private wholePending = 0
  /** The journal this store appends to; undefined until the first whole write of this store. */
  private journalId: string | undefined
  /** The journal, open for appending between whole writes. */
  private journalFd: number | undefined
  /** Where the journal's next line goes, and the end of the room written ahead of it. */
  private journalEnd = 0
  private journalRoom = 0
  /** The journal's size past which the next append folds it into a whole write. */
  private foldAt = journalFoldMin
  /**
   * Set once a write of the state failed (or the journal could not reserve
   * room for more): what the run does from then on might not be recorded,
   * so it must start no new write to the platform (`stopped`).
   */
  private failure: LocalWriteError | undefined
  private readonly dirtyItems = new Set<string>()
  private readonly dirtyAssets = new Set<string>()

  constructor(dir: string, state: SyncState) {
    this.dir = dir
    this.state = state
  }

  /** Why the run must start no new write to the platform (its steps might not be recorded), once it must not. */
  get stopped(): LocalWriteError | undefined {
    return this.failure
  }

  /** Sets (or, with undefined, removes) the entry of `key`, to be written by the next save. */
  setItem(key: string, entry: StateEntry | undefined): void {
    if (entry === undefined) delete this.state.items[key]
    else this.state.items[key] = entry
    this.dirtyItems.add(key)
  }

  /** Marks the entry of `key` as changed in place, to be written by the next save. */
  touchItem(key: string): void {
    this.dirtyItems.add(key)
  }

  /** Sets the record of an uploaded file, to be written by the next save. */
  setAsset(sha256: string, entry: AssetEntry): void {
    this.state.assets[sha256] = entry
    this.dirtyAssets.add(sha256)
  }

  /**
   * Writes the whole state and starts a new journal; resolves once it is on
   * disk. A call made while another whole write waits shares that one.
   */
  save(): Promise<void> {
    if (this.queued) return this.queued
    this.wholePending++
    const next = this.chain.then(async () => {
      this.queued = undefined
      try {
        this.writeWhole()
      } finally {
        this.wholePending--
      }
    })
    // A failed write must not wedge the chain for the next one.
    this.chain = next.catch(() => undefined)
    this.queued = next
    return next
  }

  /**
   * Appends the entries changed since the last write to the journal (the
   * whole state when this store has not written it yet); resolves once
   * they are written. The append is synchronous, a line or two: waiting on
   * the thread pool for it made every step of a run queue behind the others.
   */
  saveChanges(): Promise<void> {
    if (this.journalId === undefined) return this.save()
    if (this.wholePending > 0) return this.chain.then(() => this.appendChanges())
    try {
      this.appendChanges()
      return Promise.resolve()
    } catch (error) {
      return Promise.reject(error)
    }
  }

  /** Closes the journal (after the run's last save; a later save opens it again). */
  async close(): Promise<void> {
    await this.chain
    this.closeJournal()
  }

  /**
   * Synchronous, like the appends: the run waits for it (before its first
   * write and after its last), and its asynchronous steps (folder checks,
   * two writes, two renames) each waited on the thread pool.
   */
  private writeWhole(): void {
    this.dirtyItems.clear()
    this.dirtyAssets.clear()
    this.closeJournal()
    const journal = randomUUID()
    // `known` describes this run, not the file.
    const {known: _known, ...file} = this.state
    try {
      // Streamed: the state of tens of thousands of items is never one string.
      this.foldAt = Math.max(journalFoldMin, writeJsonInside(this.dir, stateFile, {...file, journal}))
      // The new state names its journal: a crash before the journal is reset leaves an old one, which is not replayed.
      writeFileInside(this.dir, journalFile, JSON.stringify({journal}) + '\n')
    } catch (error) {
      throw this.failed(error)
    }
    this.journalId = journal
  }

  /** `error` of a write of the state; a machine's failure also stops the run's writes to the platform. */
  private failed(error: unknown): unknown {
    const named = asLocalWriteError(error, this.dir, error instanceof LocalWriteError ? error.file : journalFile)
    if (named instanceof LocalWriteError) this.failure ??= named
    return named
  }

  private appendChanges(): void {
    const lines: string[] = []
    for (const key of this.dirtyItems) lines.push(JSON.stringify({item: key, entry: this.state.items[key] ?? null}))
    for (const sha of this.dirtyAssets) lines.push(JSON.stringify({asset: sha, entry: this.state.assets[sha] ?? null}))
    this.dirtyItems.clear()
    this.dirtyAssets.clear()
    if (lines.length === 0) return
    const data = Buffer.from(lines.join('\n') + '\n')
    try {
      const fd = this.openJournal()
      this.reserve(fd, data.length)
      this.journalEnd += writeAll(fd, data, this.journalEnd)
    } catch (error) {
      throw this.failed(error)
    }
    // Folded in behind this append (not awaited: the next appends wait for it, `wholePending`).
    if (this.journalEnd > this.foldAt && !this.failure) void this.save().catch(() => undefined)
  }

  /** The journal, open for writing at `journalEnd` (after the lines already in it). */
  private openJournal(): number {
    if (this.journalFd !== undefined) return this.journalFd
    const fd = openAppendInside(this.dir, journalFile, true)
    this.journalFd = fd
    this.journalEnd = this.journalRoom = fstatSync(fd).size
    return fd
  }

  /** Tops up the room ahead of the journal's lines when `need` more bytes would leave too little; a failure only stops the run. */
  private reserve(fd: number, need: number): void {
    if (this.failure || this.journalRoom - this.journalEnd - need >= reserveLow) return
    try {
      this.journalRoom += writeAll(fd, padding, Math.max(this.journalRoom, this.journalEnd))
    } catch (error) {
      // The lines of the writes in flight still fit in what is left; no new write may start.
      this.failed(error)
    }
  }

  private closeJournal(): void {
    if (this.journalFd === undefined) return
    try {
      // The room written ahead is not part of the journal kept on disk.
      if (this.journalRoom > this.journalEnd) ftruncateSync(this.journalFd, this.journalEnd)
    } catch {
      // Spaces left at the end are skipped by a replay.
    }
    closeSync(this.journalFd)
    this.journalFd = undefined
    this.journalEnd = this.journalRoom = 0
  }
}

/** Writes all of `data` at `position` of `fd` (a full disk may take part of it, then fail); returns its length. */
function writeAll(fd: number, data: Buffer, position: number): number {
  let done = 0
  while (done < data.length) done += writeSync(fd, data, done, data.length - done, position + done)
  return data.length
}
