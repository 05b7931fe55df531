/**
 * Push: scan, plan and apply. `planPush` reads the folder, the state and the
 * remote and computes the plan (plain data); `applyPush` carries it out;
 * `recheckSavedPlan` computes a plan read back from JSON again and returns
 * it to apply when nothing changed since. Imports only `../shared/`, never pull.
 */
export {planPush} from './prepare.js'
export {applyPush} from './apply.js'
export {push} from './push.js'
export {computePlan, type PlanOptions} from './plan.js'
export {contextOf, type PlanContext} from './plan-context.js'
export {parsePlanFile} from './plan-file.js'
export {recheckSavedPlan, StalePlanError, type CheckedPlan} from './saved-plan.js'
export {planFingerprint, fingerprintChanges, fingerprinted} from './fingerprint.js'
export {provisionalBody} from './item-step.js'
