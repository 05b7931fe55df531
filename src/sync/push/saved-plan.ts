/**
 * Applying a saved plan (`kbsync push --plan FILE`, like `terraform apply
 * PLANFILE`): the folder is scanned and the remote read again, the plan is
 * computed again with the options it was made with, and it is applied only
 * if its fingerprint and its steps are those of the saved one. Otherwise
 * nothing is written, and the error names what changed since.
 */
import {fingerprintChanges, fingerprinted} from './fingerprint.js'
import {planPush} from './prepare.js'
import type {PushOptions, PushPlan} from '../shared/types.js'

/** A saved plan that no longer describes the folder or the remote; nothing was written. */
export class StalePlanError extends Error {
  constructor(readonly reasons: string[]) {
    super(`The saved plan is out of date: ${reasons.join('; ')}`)
    this.name = 'StalePlanError'
  }
}

/** Why `saved` may not be applied as `fresh`, the plan computed now (empty: it may); `fresh` gets its fingerprint. */
function staleReasons(saved: PushPlan, fresh: PushPlan): string[] {
  const freshPrint = fingerprinted(fresh).fingerprint
  if (!saved.fingerprint || !freshPrint) return ['the plan has no fingerprint']
  const changes = fingerprintChanges(saved.fingerprint, freshPrint)
  if (changes.length > 0) return changes
  // The same inputs give the same plan; a difference means the file was edited or another kbsync version made it.
  if (JSON.stringify(saved.ops) !== JSON.stringify(fresh.ops))
    return [
      'its steps are not those the same folder and knowledge base give now (was the file edited, or made by another kbsync version?)'
    ]
  return []
}

/** The plan computed now for a saved one, and the options it was computed with. */
export interface CheckedPlan {
  plan: PushPlan
  options: PushOptions
}

/**
 * Computes the plan again for `saved` (a plan read back from JSON) with the
 * options it was made with (prune, force, limits; `options.yes` may still
 * confirm its deletions), and returns it when it is the saved one; throws
 * `StalePlanError` otherwise. Writes nothing.
 */
export async function recheckSavedPlan(saved: PushPlan, options: PushOptions): Promise<CheckedPlan> {
  const planned = saved.options ?? {}
  const withOptions: PushOptions = {
    ...options,
    prune: planned.prune,
    onOrphan: planned.onOrphan,
    archiveTopic: planned.archiveTopic,
    notice: planned.notice,
    lock: planned.lock,
    force: planned.force,
    yes: options.yes === true || planned.yes === true
  }
  if (planned.maxDeletions !== undefined) withOptions.maxDeletions = planned.maxDeletions
  if (planned.maxWarnings !== undefined) withOptions.maxWarnings = planned.maxWarnings
  const plan = await planPush({...withOptions, forApply: true})
  const reasons = staleReasons(saved, plan)
  if (reasons.length > 0) throw new StalePlanError(reasons)
  return {plan, options: withOptions}
}
