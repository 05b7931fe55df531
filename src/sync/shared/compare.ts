/**
 * The one comparison of a document's three versions: the local file, the
 * base (the sync state's entry, what both sides were at the last sync) and
 * the remote item. Push, the check just before a write and pull all ask it,
 * so they cannot disagree about what changed where.
 *
 * One definition of "changed" on each side:
 * - locally: the file's source text (`sourceHash`) differs from the base.
 *   The source, not the rendered body: a render also moves when a link
 *   target gets a new id or a file its URL, which nobody edited, and a source
 *   edit that renders the same is still the writer's work that a pull must
 *   not overwrite. Nor the title alone: one from a navigation file or the
 *   file name changes with no edit of the document (a title in the file is
 *   part of its source).
 * - remotely: the stored body's hash differs from the base's, or the title
 *   does, unless the remote already holds what the local side says (an edit
 *   both made alike, or our own write whose state save a crash lost).
 */
import type {StateEntry} from '../../local/index.js'
import {holdsBody, type RemoteDetail} from './remote.js'

/** What the base records about a document. */
export type Base = Pick<StateEntry, 'sourceHash' | 'title' | 'remoteHash'>

/** The local document as the comparison sees it. */
export interface LocalSide {
  /** Hash of the file's text; absent for a topic without a body file. */
  sourceHash?: string | undefined
  title: string
}

/** The remote item as the comparison sees it. */
export interface RemoteSide {
  title: string
  /** Hash of the stored body, when its record was read. */
  bodyHash?: string | undefined
}

/** Whether the writer changed the document since the base: its source text. */
export function editedLocally(local: Pick<LocalSide, 'sourceHash'>, base: Pick<Base, 'sourceHash'>): boolean {
  return local.sourceHash !== base.sourceHash
}

/**
 * Whether the platform's body changed since the base. `holdsLocal` tells
 * whether the remote body is what the local document would be written as
 * (then it is no edit to take or protect); asked only when the hashes differ.
 */
export function bodyEditedRemotely(
  remote: Pick<RemoteSide, 'bodyHash'>,
  base: Pick<Base, 'remoteHash'>,
  holdsLocal: () => boolean
): boolean {
  return remote.bodyHash !== undefined && remote.bodyHash !== base.remoteHash && !holdsLocal()
}

/** Whether the platform's title changed since the base (to something else than the local title). */
export function titleEditedRemotely(remote: RemoteSide, base: Base, local: LocalSide | undefined): boolean {
  return remote.title !== base.title && remote.title !== local?.title
}

/**
 * Whether the platform already stores what the local document renders to
 * (`hash`, `body` made only when asked). Only a complete render counts: one
 * with a placeholder for a file without a URL is not what would be stored.
 */
export function holdsRender(
  detail: RemoteDetail,
  render: {hash: string; complete: boolean},
  body: () => string
): boolean {
  return render.complete && holdsBody(detail, render.hash, body)
}

/** How one side of a document stands against the base. */
export type SideState = 'absent' | 'same' | 'changed'

/** The classification of a document. */
export type Verdict =
  /** Nothing to do on either side. */
  | 'unchanged'
  /** Changed locally only: push writes it, pull keeps the file. */
  | 'local-edit'
  /** Changed on the platform only: pull takes it, push reports drift. */
  | 'remote-edit'
  /** Changed on both sides (or changed on one and gone from the other): nobody overwrites, a copy is written. */
  | 'conflict'
  /** On both sides, never synced: the one may already say what the other holds. */
  | 'adopt'
  /** On one side only, never synced: created on the other. */
  | 'new'
  /** Synced before, deleted locally, unchanged on the platform. */
  | 'gone-locally'
  /** Synced before, deleted on the platform, unchanged locally. */
  | 'gone-remotely'

/** The three versions of a document, each side already compared with the base. */
export interface Triple {
  /** Whether the state has an entry for it. */
  base: boolean
  local: SideState
  remote: SideState
}

/** Classifies a document (pure; push and pull both decide by it). */
export function classify({base, local, remote}: Triple): Verdict {
  if (!base) {
    if (local !== 'absent' && remote !== 'absent') return 'adopt'
    return local === 'absent' && remote === 'absent' ? 'unchanged' : 'new'
  }
  if (local === 'absent' && remote === 'absent') return 'unchanged'
  if (local === 'absent') return remote === 'changed' ? 'conflict' : 'gone-locally'
  if (remote === 'absent') return local === 'changed' ? 'conflict' : 'gone-remotely'
  if (local === 'changed') return remote === 'changed' ? 'conflict' : 'local-edit'
  return remote === 'changed' ? 'remote-edit' : 'unchanged'
}

/** The state of a side from whether it exists and whether it changed. */
export function sideState(present: boolean, changed: boolean): SideState {
  return !present ? 'absent' : changed ? 'changed' : 'same'
}
