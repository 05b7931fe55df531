/**
 * kbsync's library API: the dialect conversions. Plugins are exported from
 * `kbsync/plugins`.
 */
export * from './dialect/index.js'
export {planPush, applyPush, push} from './sync/index.js'
export type {PushOptions, PushPlan, PushResult, PlanOp, OpKind, Orphan, SyncEvent, SyncClient} from './sync/index.js'
export {scanFolder} from './local/index.js'
export {KbClient, ApiError, AuthError, NetworkError, formatClientEvent} from './api/index.js'
export type {ClientOptions, ClientEvent, ClientStats} from './api/index.js'
export type {Diagnostic, ScanResult, LocalTopic, LocalArticle, LocalNode} from './local/index.js'
export {pull, planPull, safeStem, assignNames} from './sync/pull/index.js'
export type {PullOptions, PullResult, PullPlan, PullOp, PullEvent, PullClient} from './sync/pull/index.js'
