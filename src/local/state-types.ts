/**
 * The shape of the sync state file, `.kbsync/state.json` (see `state.ts`
 * for how it is loaded and saved).
 */
import type {ItemType} from '../api/types.js'

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
   * The remote `updated_at` at which kbsync last read or wrote the item's
   * permissions (a record: a folder that manages permissions has them read
   * at every pull, `sync/shared/permissions-managed.ts`). Absent (state
   * files of earlier versions): unknown. The rule is in
   * `sync/shared/permissions-seen.ts`.
   */
  permissionsSeenAt?: string
  /**
   * `create`: a create was about to be sent (a crash may have left the item
   * on the remote; the next run adopts it by title under `parentId`).
   * `provisional`: created with a placeholder body (link cycle); the real
   * body is still to be written.
   */
  pending?: 'create' | 'provisional'
  /** Pull: a file the body uses could not be downloaded (its URL stayed in the file); the next pull reads the item again and retries. */
  missingFiles?: boolean
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

/** What the state file names a target by (see `state-target.ts`). */
export interface TargetRecord {
  /** `targetKey`: the API URL (or `embedded:<data file>`) and the root topic. */
  key: string
  /** For messages, with the root topic. */
  label: string
  /** The origins its API and files were seen at (the guard refuses them in the bodies of other targets). */
  origins: string[]
  embedded?: boolean
}

/** What the state file keeps of one target: the state of a single-target file, named. */
export interface TargetState {
  target: TargetRecord
  rootTopicId: string | null
  items: Record<string, StateEntry>
  assets: Record<string, AssetEntry>
  linksPending?: boolean
  /** The publishing account's user id, as the answers to kbsync's writes named it (config `lock`). */
  publisher?: number
  /** See `SyncState.refusedBodies`. */
  refusedBodies?: Record<string, string>
}

/**
 * The state of one target, as a run uses it. The file
 * (`.kbsync/state.json`, format 2) holds one per target:
 * `{schemaVersion: 2, current, targets: {key: TargetState}, aside?, journal}`.
 */
export interface SyncState {
  schemaVersion: number
  /** The knowledge base this state describes (absent: a state made without one, `emptyState`). */
  target?: TargetRecord
  /** Whether the file knew this target before this run (false: a first sync there). */
  known?: boolean
  /** What the file keeps for the other targets: written back untouched, never used by this run. */
  others?: Record<string, TargetState>
  /** A state of format 1 that could not be attributed to this target: kept in the file, untouched. */
  aside?: unknown
  /** The root topic the state was written for (`null`: the knowledge-base root). */
  rootTopicId: string | null
  /** By repo-relative path with `/`: article files and topic folders. */
  items: Record<string, StateEntry>
  assets: Record<string, AssetEntry>
  /**
   * A pull moved files and stopped before it had rewritten the documents
   * linking to them: the next pull reads every record and rewrites every
   * document nobody edited, so their relative links follow.
   */
  linksPending?: boolean
  /** The publishing account's user id, as the answers to kbsync's writes named it (config `lock`). */
  publisher?: number
  /**
   * Pull: the items whose body on the platform kbsync cannot convert without
   * loss (over the parse budget), by id, with the `updated_at` at which pull
   * refused it: a pull reads such an item again only when that moves.
   */
  refusedBodies?: Record<string, string>
}
