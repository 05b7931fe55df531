/**
 * The sync state, `.kbsync/state.json`: what kbsync last pushed for each
 * path, and the remote item it maps to. It makes a no-op run cheap and lets
 * web edits be detected; the engine stays correct without it (it then
 * matches by `kb_id` and title, and compares bodies).
 *
 * Saved after every step (the whole file atomically at the start and end
 * of a run, each step's entries appended to `.kbsync/state.journal` in
 * between), and a "create intended" entry is saved before each create, so
 * a crash at any moment never leaves a state that points at nothing or
 * forgets an item.
 *
 * The state is that of one knowledge base (`state-target.ts`): the file
 * keeps each target's apart, and a run reads and writes only its own
 * (`state-load.ts`); the others are written back as they were.
 */
import {randomUUID} from 'node:crypto'
import {closeSync, writeSync} from 'node:fs'
import path from 'node:path'
import type {AssetEntry, StateEntry, SyncState} from './state-types.js'
import {openAppendInside, writeFileInside} from './inside.js'
import {journalFile, stateFile} from './state-load.js'

export {emptyState, loadState, stateSchemaVersion, type LoadedState} from './state-load.js'
export type {AssetEntry, StateEntry, SyncState, TargetRecord, TargetState} from './state-types.js'

/** The files the state is kept in, relative to the folder. */
export const stateFiles: readonly string[] = [stateFile, journalFile]

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
  private readonly dirtyItems = new Set<string>()
  private readonly dirtyAssets = new Set<string>()

  constructor(dir: string, state: SyncState) {
    this.dir = dir
    this.state = state
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
    const text = JSON.stringify({...file, journal}, null, 2) + '\n'
    writeFileInside(this.dir, stateFile, text)
    // The new state names its journal: a crash before the journal is reset leaves an old one, which is not replayed.
    writeFileInside(this.dir, journalFile, JSON.stringify({journal}) + '\n')
    this.journalId = journal
  }

  private appendChanges(): void {
    const lines: string[] = []
    for (const key of this.dirtyItems) lines.push(JSON.stringify({item: key, entry: this.state.items[key] ?? null}))
    for (const sha of this.dirtyAssets) lines.push(JSON.stringify({asset: sha, entry: this.state.assets[sha] ?? null}))
    this.dirtyItems.clear()
    this.dirtyAssets.clear()
    if (lines.length === 0) return
    this.journalFd ??= openAppendInside(this.dir, journalFile)
    writeSync(this.journalFd, lines.join('\n') + '\n')
  }

  private closeJournal(): void {
    if (this.journalFd !== undefined) closeSync(this.journalFd)
    this.journalFd = undefined
  }
}
