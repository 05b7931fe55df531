/**
 * Data types of the sync engine: options, the plan (serialisable), events
 * and results. The client is described structurally so the engine depends on
 * what it calls, not on a class.
 */
import type {
  CreateInput,
  ItemType,
  KbItem,
  Permissions,
  PermissionsInput,
  StructureNode,
  UpdateInput,
  UploadResult
} from '../../api/types.js'
import type {Diagnostic, LinkOptions, LocaleChoice, LocalPermissions, StateTarget} from '../../local/index.js'
import type {DiagramOptions} from '../../diagrams/index.js'

/** The API calls the engine makes (the `KbClient` of `src/api` has them all). */
export interface SyncClient {
  getItem(id: string): Promise<KbItem>
  createItem(input: CreateInput & {type: ItemType}): Promise<KbItem>
  updateItem(id: string, input: UpdateInput): Promise<KbItem>
  deleteItem(id: string, options?: {withChildren?: boolean}): Promise<unknown>
  getTree(parentTopicId: string | null): Promise<StructureNode[]>
  /** The direct children of a topic (`getTree` in its place when absent): what a create looks at for a concurrent run's twin. */
  getChildren?(parentTopicId: string | null): Promise<StructureNode[]>
  getPermissions(id: string): Promise<Permissions>
  setPermissions(id: string, input: PermissionsInput): Promise<Permissions>
  /** Uploads the file at `path`, or `options.bytes` in its place (a sanitised SVG). */
  uploadFile(path: string, options?: {name?: string; bytes?: Uint8Array}): Promise<UploadResult>
}

/** Options of `planPush`, `applyPush` and `push`. */
export interface PushOptions {
  /** The folder to push. */
  dir: string
  client: SyncClient
  /** The topic the folder maps to; `null` or absent: the knowledge-base root. */
  rootTopicId?: string | null
  /** The knowledge base the client talks to, which names its part of the sync state (default: the client's API URL). */
  target?: StateTarget
  /** Delete remote items under the root that no local file maps to (only ones kbsync created or matched): `onOrphan: 'delete'`. */
  prune?: boolean
  /** What becomes of those orphans: deleted, moved under the archive topic, or kept (default: `delete` with `prune`, else `keep`). */
  onOrphan?: OrphanMode
  /** The title of the archive topic at the root (default `Archive`). */
  archiveTopic?: string
  /** A notice at the top of each published article (`true`: the default text; a text; linking to the file when `links.repoUrl` is set). */
  notice?: boolean | string
  /** Set the editors of each published item to the publishing account. */
  lock?: boolean
  /** Overwrite remote edits (drift and conflicts) with the local version. */
  force?: boolean
  /** Confirm more than `maxDeletions` deletions. */
  yes?: boolean
  /** Extra gitignore-style patterns the scan skips, like `.kbsyncignore` ones (the config's `ignore`). */
  ignore?: readonly string[]
  /** How links are resolved beyond the folder's documents: broken links, links into the repository, the site root. */
  links?: LinkOptions
  /** What to do with a docs site's locales (default: a root topic each). */
  locales?: LocaleChoice
  /** Write `kb_id` into the front matter of files whose items were created. */
  writeIds?: boolean
  /** Parallel API steps (default 8). */
  concurrency?: number
  /** Deletions above this need `yes` (default 10). */
  maxDeletions?: number
  /** Delete the twins of tracked items that concurrent pushes left (`push/twins.ts`). */
  removeTwins?: boolean
  /** More warnings than this (`--max-warnings`): nothing is applied. */
  maxWarnings?: number
  /** Progress and outcome of each step. */
  onEvent?: (event: SyncEvent) => void
  /** How Mermaid diagrams are rendered: the browser (config `browser`). */
  diagrams?: DiagramOptions
  /**
   * Stops the run (`shared/stopped.ts`): no new step starts, what completed
   * is recorded, and the run rejects with `StoppedError`. Give the client
   * the same signal to cut off its requests in flight.
   */
  signal?: AbortSignal
}

/** What becomes of the items under the root that no file names any more (`--on-orphan`). */
export type OrphanMode = 'delete' | 'archive' | 'keep'

/** What one step of the plan does. */
export type OpKind =
  'create' | 'update' | 'move' | 'rename' | 'delete' | 'archive' | 'permissions' | 'upload' | 'conflict' | 'drift'

/** The remote state an op was planned against (for conflict detection). */
export interface Baseline {
  version?: number
  updatedAt?: string
  remoteHash?: string
}

/** One step of the plan. */
export interface PlanOp {
  op: OpKind
  /** Repo-relative path of the file or folder (for `upload`: the file uploaded). */
  path: string
  /** `article` or `topic` (absent on uploads). */
  type?: ItemType
  /** The remote item, when it exists. */
  remoteId?: string
  /** The desired parent: a remote id, or null for the knowledge-base root; absent while the parent is still to be created. */
  parentId?: string | null
  /** Repo-relative path of the parent folder (for parents created in the same run). */
  parentPath?: string
  title: string
  /** Why this step is needed, in words. */
  reason: string
  /** For create/update/move/rename: what changes (`body`, `title`, `parent`). */
  changes?: Array<'body' | 'title' | 'parent'>
  /** Remote state seen when planning. */
  baseline?: Baseline
  /** sha256 of the body to be written, when known at plan time. */
  newHash?: string
  /** Uploads: sha256 of the file, and the article path that first uses it. */
  sha256?: string
  usedBy?: string
  /** Permissions ops: what will be set. */
  permissions?: LocalPermissions
  /** Deletes of a twin (`push/twins.ts`): the tracked item it repeats, compared with it again before the delete. */
  twinOf?: string
}

/** A remote item no local file maps to. */
export interface Orphan {
  remoteId: string
  type: ItemType
  title: string
  /** Path the state knew it by, when kbsync created or matched it before. */
  path?: string
  /** Whether `--prune` may delete it, or `--on-orphan archive` move it (kbsync created or matched it, and nothing else is inside it). */
  prunable: boolean
  reason: string
}

/** Options that change the plan. */
export interface PlanOptions {
  prune?: boolean
  onOrphan?: OrphanMode
  archiveTopic?: string
  notice?: boolean | string
  lock?: boolean
  force?: boolean
  yes?: boolean
  maxDeletions?: number
  /** More warnings than this: the plan is not applied (`warningLimit`). */
  maxWarnings?: number
  /** Delete the twins of tracked items that concurrent pushes left (`push/twins.ts`), with the guards of `prune`. */
  removeTwins?: boolean
}

/** Short hashes of what a plan was computed from (`push/fingerprint.ts`). */
export interface PlanFingerprint {
  /** The folder (absolute) and the root the plan is for. */
  dir: string
  rootTopicId: string | null
  /** Each document's place, title, text and resolved links, by path. */
  documents: Record<string, string>
  /** The local files the documents use. */
  assets: string
  /** Each remote item's type, title, parent, `updated_at`, and body and permissions where read, by id. */
  items: Record<string, string>
  /** The sync state the plan started from. */
  state: string
}

/** The plan: serialisable, computed without writing anything. */
export interface PushPlan {
  schemaVersion: 1
  dir: string
  rootTopicId: string | null
  ops: PlanOp[]
  orphans: Orphan[]
  diagnostics: Diagnostic[]
  /** Input errors: nothing may be written. */
  blocked: boolean
  /** More deletions than allowed without `yes`. */
  needsConfirmation: boolean
  /** Set to the `maxWarnings` the plan's warnings exceed: nothing may be written (a gate on the input, like `blocked`). */
  warningLimit?: number
  /** Counts by op kind. */
  summary: Record<OpKind, number>
  /** The knowledge base the sync state describes, and whether the state knew it (false: a first push there). */
  target?: {key: string; label: string; known: boolean}
  /** The options it was computed with (a saved plan is checked and applied with them). */
  options?: PlanOptions
  /** What it was computed from (set by `fingerprinted`: on every plan printed as JSON or saved). */
  fingerprint?: PlanFingerprint
}

/** A progress event of `applyPush`. */
export type SyncEvent =
  | {type: 'plan'; plan: PushPlan}
  | {type: 'start'; op: PlanOp}
  | {type: 'done'; op: PlanOp; remoteId?: string; skipped?: boolean; note?: string; warning?: string}
  | {type: 'failed'; op: PlanOp; error: string}
  | {type: 'conflict-file'; op: PlanOp; file: string}

/** The outcome of a push. */
export interface PushResult {
  plan: PushPlan
  /** `ok`, `conflict` (conflicts left, nothing overwritten), `failed` (some step failed), `invalid` (input errors, nothing written), `refused` (too many deletions without confirmation). */
  status: 'ok' | 'conflict' | 'failed' | 'invalid' | 'refused'
  /** Steps done, skipped at apply time (nothing left to write), failed. */
  done: PlanOp[]
  skipped: PlanOp[]
  failed: Array<{op: PlanOp; error: string}>
  /** Files written beside the folder's files: `.remote.md` of conflicts, and files given a `kb_id`. */
  written: string[]
  /** Write requests sent (create, update, delete, permissions, upload). */
  writes: number
}
