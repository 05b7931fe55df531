/**
 * The sync engine: plan (desired tree vs remote and state) and apply. Knows
 * nothing of the terminal. Push (`push/`) and pull (`pull/`) are siblings
 * that share `shared/`; this is the package's face.
 */
export {
  planPush,
  applyPush,
  push,
  computePlan,
  contextOf,
  parsePlanFile,
  recheckSavedPlan,
  StalePlanError,
  planFingerprint,
  fingerprintChanges,
  fingerprinted,
  provisionalBody,
  type PlanOptions,
  type PlanContext,
  type CheckedPlan
} from './push/index.js'
export {RefusedError} from './shared/refused.js'
export {StoppedError} from './shared/stopped.js'
export {planStatus, type StatusOptions, type StatusPlan, type PermissionChange} from './status/index.js'
export {managesPermissions, type PermissionsSetting} from './shared/permissions-managed.js'
export {
  matchItems,
  readRemote,
  normalizeBody,
  bodyHash,
  stripTitle,
  RootTopicError,
  renderBody,
  conflictFileOf,
  classify,
  defaultArchiveTopic,
  type Verdict
} from './shared/index.js'
export type {
  Matching,
  MatchReason,
  RemoteSnapshot,
  RemoteItem,
  RemoteDetail,
  RenderContext,
  Rendered
} from './shared/index.js'
export type {
  Baseline,
  OpKind,
  Orphan,
  OrphanMode,
  PlanFingerprint,
  PlanOp,
  PushOptions,
  PushPlan,
  PushResult,
  SyncClient,
  SyncEvent
} from './shared/index.js'
