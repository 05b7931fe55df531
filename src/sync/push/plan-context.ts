/**
 * What applying a plan needs besides the plan: the scan, the state, the
 * remote snapshot and the matching it was computed from. The plan itself is
 * plain data (it survives `JSON.stringify`); its context is kept beside it
 * for the process that made it, and is derived again from the folder and the
 * remote for a plan read back from a file (`saved-plan.ts`), which the plan's
 * fingerprint then proves unchanged.
 */
import type {ScanResult, StateEntry, SyncState} from '../../local/index.js'
import type {Matching} from '../shared/match.js'
import type {RemoteSnapshot} from '../shared/remote.js'
import type {PushPlan} from '../shared/types.js'
import type {ArchiveTopic} from '../shared/archive.js'
import type {NoticeSettings} from '../shared/notice.js'

/** Everything apply needs besides the serialisable plan. */
export interface PlanContext {
  scan: ScanResult
  state: SyncState
  remote: RemoteSnapshot
  matching: Matching
  /** State entries to record without any request (matched items, refreshed baselines, renamed keys). */
  refresh: Record<string, StateEntry>
  /** State keys to drop (renamed paths, items gone from the remote). */
  forget: string[]
  /** The archive topic (`onOrphan: archive`), taken out of `remote`. */
  archive?: ArchiveTopic
  /** The notice every article's render opens with (config `notice`). */
  notice?: NoticeSettings
  /** `lock` is on and the publishing account is not known yet: the items are locked once a write's answer names it. */
  lockPending?: boolean
}

// Beside the plan, not on it: the plan stays the plain data it prints as.
const contexts = new WeakMap<PushPlan, PlanContext>()

/** The context of a plan made by `computePlan` in this process. */
export function contextOf(plan: PushPlan): PlanContext {
  const context = contexts.get(plan)
  if (!context)
    throw new Error(
      'This plan was not made by planPush in this process (a plan read from a file is checked by recheckSavedPlan, which returns the plan to apply)'
    )
  return context
}

/** Keeps `context` beside `plan`; returns the plan. */
export function attachContext(plan: PushPlan, context: PlanContext): PushPlan {
  contexts.set(plan, context)
  return plan
}
