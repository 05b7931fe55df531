/**
 * Push: scan, plan and apply. `planPush` reads the folder, the state and the
 * remote and computes the plan (plain data); `applyPush` carries it out;
 * `applySavedPlan` applies a plan read back from JSON when nothing changed
 * since. Imports only `../shared/`, never pull.
 */
export {planPush} from './prepare.js'
export {applyPush} from './apply.js'
export {push} from './push.js'
export {computePlan, type PlanOptions} from './plan.js'
export {contextOf, type PlanContext} from './plan-context.js'
export {parsePlanFile, PlanFileError} from './plan-file.js'
export {applySavedPlan, recheckSavedPlan, staleReasons, StalePlanError, type CheckedPlan} from './saved-plan.js'
export {planFingerprint, fingerprintChanges, fingerprinted} from './fingerprint.js'
export {provisionalBody} from './item-step.js'
