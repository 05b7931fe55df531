/**
 * kbsync's library API: the dialect conversions, the API client, the sync
 * engine (push and pull), the local knowledge-base server and the preview. The remark
 * plugins are exported from `kbsync/plugins`.
 */
export * from './dialect/index.js'
export {planPush, applyPush, push, RootTopicError, StoppedError} from './sync/index.js'
export type {PushOptions, PushPlan, PushResult, PlanOp, OpKind, Orphan, SyncEvent, SyncClient} from './sync/index.js'
export {scanFolder, remoteTarget} from './local/index.js'
export {KbClient, ApiError, AuthError, NetworkError, formatClientEvent} from './api/index.js'
export type {ClientOptions, ClientEvent, ClientStats} from './api/index.js'
export type {Diagnostic, ScanResult, LocalTopic, LocalArticle, LocalNode, StateTarget} from './local/index.js'
export {pull, planPull, safeStem, assignNames, pullBody} from './sync/pull/index.js'
export type {PullOptions, PullResult, PullPlan, PullOp, PullEvent, PullClient} from './sync/pull/index.js'
export {startServer} from './server/index.js'
export type {ServerOptions, RunningServer} from './server/index.js'
export {startPreview} from './preview/index.js'
export type {PreviewOptions, PreviewServer} from './preview/index.js'
