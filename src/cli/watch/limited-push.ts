/**
 * One push of watch mode under `--max-warnings`: planned, then applied only
 * when the plan's warnings are within the limit, so a run above it writes
 * nothing (like a plan with errors).
 */
import {applyPush, planPush, type PushOptions, type PushResult} from '../../sync/index.js'
import {warningLimitExceeded} from '../output/warning-limit.js'

/** Plans; applies unless the plan has more warnings than `maxWarnings` (then status `invalid`, nothing written). */
export async function pushWithinWarningLimit(options: PushOptions, maxWarnings: number | undefined): Promise<PushResult> {
  const plan = await planPush(options)
  options.onEvent?.({type: 'plan', plan})
  if (warningLimitExceeded(plan.diagnostics, maxWarnings)) return {plan, status: 'invalid', done: [], skipped: [], failed: [], written: [], writes: 0}
  return applyPush(plan, options)
}
