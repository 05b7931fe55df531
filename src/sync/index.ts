/**
 * The sync engine: plan (desired tree vs remote and state) and apply. Knows
 * nothing of the terminal.
 */
export {planPush} from './prepare.js'
export {applyPush} from './apply.js'
export {push} from './push.js'
export {computePlan, contextOf, type PlanContext, type PlanOptions} from './plan.js'
export {matchItems, type Matching, type MatchReason} from './match.js'
export {readRemote, normalizeBody, bodyHash, stripTitle, RootTopicError, type RemoteSnapshot, type RemoteItem, type RemoteDetail} from './remote.js'
export {renderBody, type RenderContext, type Rendered} from './render.js'
export {conflictFileOf} from './conflicts.js'
export {provisionalBody} from './item-step.js'
export type {Baseline, OpKind, Orphan, PlanOp, PushOptions, PushPlan, PushResult, SyncClient, SyncEvent} from './types.js'
