/** Watch mode: the pure batcher, the path filter (the folder's, shared with the preview) and the session. */
export {
  coalesce,
  createBatcher,
  defaultBackoff,
  describeBatch,
  type Batch,
  type Batcher,
  type BatcherOptions,
  type ChangeEvent,
  type ChangeKind,
  type RunOutcome,
  type Timers
} from './batch.js'
export {createPathFilter, type PathFilter} from '../../local/watch.js'
export {filesStable} from './stable.js'
export {actionLine, resultLine} from '../output/lines.js'
export {startWatchSession, type BatchReport, type WatchSession, type WatchSessionOptions} from './session.js'
