/**
 * The sync state, `.kbsync/state.json`: what kbsync last pushed for each
 * path, and the remote item it maps to. It makes a no-op run cheap and lets
 * web edits be detected; the engine stays correct without it (it then
 * matches by `kb_id` and title, and compares bodies).
 *
 * Written atomically (temporary file + rename) after every step, and a
 * "create intended" entry is saved before each create, so a crash at any
 * moment never leaves a state that points at nothing or forgets an item.
 */
import {mkdir, readFile, rename, writeFile} from 'node:fs/promises'
import path from 'node:path'
import type {ItemType} from '../api/types.js'

/** The version of the state file format this code reads and writes. */
export const stateSchemaVersion = 1

/** What the state knows of one synced item. */
export interface StateEntry {
  /** Remote id; absent while a create is only intended (journal). */
  id?: string
  type: ItemType
  /** Title and parent id as last pushed (or, for an intended create, as about to be). */
  title: string
  parentId: string | null
  /** sha256 of the source last pushed (raw file, CRLF normalised). */
  sourceHash?: string
  /** sha256 of the body last pushed, as the server stores it (ids resolved, images as URLs). */
  renderedHash?: string
  /** The render key (the body and the ids and file URLs it used) that gave `renderedHash`: the same key, the same body. */
  renderKey?: string
  /** Remote `version`/`updated_at` seen right after our last write or check. */
  remoteVersion?: number
  remoteUpdatedAt?: string
  /** sha256 of the body the server returned then (title heading stripped). */
  remoteHash?: string
  /** Permissions last set (stable key), so unchanged permissions cost no request. */
  permissionsKey?: string
  /**
   * `create`: a create was about to be sent (a crash may have left the item
   * on the remote; the next run adopts it by title under `parentId`).
   * `provisional`: created with a placeholder body (link cycle); the real
   * body is still to be written.
   */
  pending?: 'create' | 'provisional'
}

/** An uploaded file, by the sha256 of its bytes. */
export interface AssetEntry {
  /** The upload's guid (single use: only the article that attached it used it). */
  guid: string
  /** The file URL the server gave it; later bodies reference this. */
  url?: string
  /** The article the file was first attached to. */
  articleId?: string
  /** Path of that article: after a crash between upload and saving the URL, its record tells the URL. */
  usedBy?: string
}

/** The whole state file. */
export interface SyncState {
  schemaVersion: number
  /** The root topic the state was written for (`null`: the knowledge-base root). */
  rootTopicId: string | null
  /** By repo-relative path with `/`: article files and topic folders. */
  items: Record<string, StateEntry>
  assets: Record<string, AssetEntry>
}

/** Path of the state file for the folder `dir`. */
export function statePath(dir: string): string {
  return path.join(dir, '.kbsync', 'state.json')
}

/** An empty state for `rootTopicId`. */
export function emptyState(rootTopicId: string | null): SyncState {
  return {schemaVersion: stateSchemaVersion, rootTopicId, items: {}, assets: {}}
}

/** Result of `loadState`. */
export interface LoadedState {
  state: SyncState
  /** Why the stored state was not used, when it was not. */
  warning?: string
}

/**
 * Reads the state of `dir` for `rootTopicId`. A missing file gives an empty
 * state; a newer format or another root is not misread: it is set aside
 * (with a warning) and the run matches from scratch.
 */
export async function loadState(dir: string, rootTopicId: string | null): Promise<LoadedState> {
  let text: string
  try {
    text = await readFile(statePath(dir), 'utf8')
  } catch {
    return {state: emptyState(rootTopicId)}
  }
  let data: SyncState
  try {
    data = JSON.parse(text) as SyncState
  } catch {
    return {state: emptyState(rootTopicId), warning: 'The state file is not valid JSON; matching from scratch'}
  }
  if (data.schemaVersion !== stateSchemaVersion) {
    return {state: emptyState(rootTopicId), warning: `The state file has format ${data.schemaVersion}, this kbsync reads ${stateSchemaVersion}; matching from scratch`}
  }
  if ((data.rootTopicId ?? null) !== rootTopicId) {
    return {state: emptyState(rootTopicId), warning: `The state file was written for root ${data.rootTopicId ?? '(knowledge-base root)'}; matching from scratch`}
  }
  return {state: {schemaVersion: stateSchemaVersion, rootTopicId, items: data.items ?? {}, assets: data.assets ?? {}}}
}

/**
 * Keeps the state of one folder and saves it atomically. Saves are
 * serialised: concurrent steps each wait for a write that holds their change.
 */
export class StateStore {
  readonly state: SyncState
  private readonly file: string
  private chain: Promise<void> = Promise.resolve()
  private counter = 0
  private queued: Promise<void> | undefined

  constructor(dir: string, state: SyncState) {
    this.file = statePath(dir)
    this.state = state
  }

  /** Writes the current state (temporary file + rename); resolves once it is on disk. */
  save(): Promise<void> {
    // A save still queued behind the running one serialises the state when it starts, so it already
    // holds this caller's change: share it. Without this, N steps queue N full writes one after another.
    if (this.queued) return this.queued
    const next = this.chain.then(async () => {
      this.queued = undefined
      await mkdir(path.dirname(this.file), {recursive: true})
      const temporary = `${this.file}.${process.pid}.${this.counter++}.tmp`
      await writeFile(temporary, JSON.stringify(this.state, null, 2) + '\n')
      await rename(temporary, this.file)
    })
    // A failed save must not wedge the chain for the next one.
    this.chain = next.catch(() => undefined)
    this.queued = next
    return next
  }
}
