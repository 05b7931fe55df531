/**
 * The push's progress for the terminal, as `kbsync push` and watch mode print
 * it: each step done (a progress bar on a TTY), failures, conflict copies and
 * drift.
 */
import type {SyncEvent} from '../../sync/index.js'
import {formatOp} from './plan-text.js'
import {actionLine} from './lines.js'
import type {Reporter} from './reporter.js'

/** Prints each event of a push; the bar's total comes from the `plan` event (conflicts and drift are no steps). */
export function eventPrinter(reporter: Reporter): (event: SyncEvent) => void {
  let total = 0
  let count = 0
  return (event) => {
    // A step done with a loss the writer should know of (links published as text).
    if (event.type === 'done' && event.warning) reporter.warn(event.warning)
    if (event.type === 'plan') {
      total = event.plan.ops.filter((op) => op.op !== 'conflict' && op.op !== 'drift').length
    } else if (event.type === 'done' && !event.skipped) {
      count++
      reporter.action(actionLine(event.op, event.remoteId) + (event.note ? `: ${event.note}` : ''))
      reporter.progress(count, total, event.op.path)
    } else if (event.type === 'failed') {
      reporter.error(`${formatOp(event.op).trim()}: ${event.error}`)
    } else if (event.type === 'conflict-file') {
      reporter.error(
        `conflict: ${event.op.path} was edited on the platform and locally; the remote version is in ${event.file}`
      )
    } else if (event.type === 'done' && event.op.op === 'drift') {
      reporter.warn(`drift: ${event.op.path}: ${event.op.reason}`)
    }
  }
}
