/**
 * What push and pull both use: the remote snapshot, rendering, matching,
 * the one comparison of a document's three versions, conflict copies, the
 * document's file, body and place, and the engine's data types. Imports
 * neither push nor pull.
 */
export {matchItems, type Matching, type MatchReason} from './match.js'
export {
  readRemote,
  normalizeBody,
  bodyHash,
  stripTitle,
  RootTopicError,
  type RemoteSnapshot,
  type RemoteItem,
  type RemoteDetail
} from './remote.js'
export {renderBody, type RenderContext, type Rendered} from './render.js'
export {planRenderContext} from './render-context.js'
export {parentPathOf} from './parent-path.js'
export {
  classify,
  editedLocally,
  bodyEditedRemotely,
  titleEditedRemotely,
  holdsRender,
  sideState,
  type Base,
  type LocalSide,
  type RemoteSide,
  type SideState,
  type Triple,
  type Verdict
} from './compare.js'
export {defaultArchiveTopic, hideArchive, type ArchiveTopic} from './archive.js'
export {conflictFileOf, writeConflictFile, type ConflictSource} from './conflicts.js'
export type {
  Baseline,
  OpKind,
  Orphan,
  OrphanMode,
  PlanFingerprint,
  PlanOp,
  PlanOptions,
  PushOptions,
  PushPlan,
  PushResult,
  SyncClient,
  SyncEvent
} from './types.js'
