/**
 * The sync engine: plan (desired tree vs remote and state) and apply. Knows
 * nothing of the terminal.
 */
export {planPush} from './push/prepare.js'
export {applyPush} from './push/apply.js'
export {push} from './push/push.js'
export {computePlan, contextOf, type PlanContext, type PlanOptions} from './push/plan.js'
export {matchItems, type Matching, type MatchReason} from './shared/match.js'
export {readRemote, normalizeBody, bodyHash, stripTitle, RootTopicError, type RemoteSnapshot, type RemoteItem, type RemoteDetail} from './shared/remote.js'
export {renderBody, type RenderContext, type Rendered} from './shared/render.js'
export {conflictFileOf} from './shared/conflicts.js'
export {provisionalBody} from './push/item-step.js'
export type {Baseline, OpKind, Orphan, PlanOp, PushOptions, PushPlan, PushResult, SyncClient, SyncEvent} from './shared/types.js'
