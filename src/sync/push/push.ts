/** `push`: plan, then apply; the one code path of the CLI, watch mode and the library. */
import {applyPush} from './apply.js'
import {planPush} from './prepare.js'
import type {PushOptions, PushResult} from '../shared/types.js'

/** Plans and applies a push of `options.dir`. */
export async function push(options: PushOptions): Promise<PushResult> {
  const plan = await planPush({...options, forApply: true})
  options.onEvent?.({type: 'plan', plan})
  return applyPush(plan, options)
}
