/**
 * A navigation section (a MkDocs `nav` label over pages, an mdBook part) is
 * a topic without a file: its entry in the navigation file is all it is.
 * Pull records it as pulled (its title and place go to the navigation,
 * `navigation-edits.ts`); a body written on the platform has nowhere to go,
 * and says so.
 */
import type {PullOp} from './plan.js'
import type {ApplyRun} from './run.js'
import {recordPulled} from './state-book.js'

/** Whether `op` is a navigation section's, which has no file (`plan.ts` gives it the file `''`). */
export function isSectionOp(op: PullOp): boolean {
  return op.type === 'topic' && op.file === ''
}

/** Records the section of `op` as pulled, with a warning when the platform gave it a body. */
export async function pullSection(run: ApplyRun, op: PullOp): Promise<void> {
  const item = run.context.remote.items[op.id]!
  const detail = run.context.remote.details[op.id]!
  if (detail.body.trim() !== '') {
    run.result.diagnostics.push({
      severity: 'warning',
      file: run.context.scan.byPath[op.path]?.navigation?.file ?? op.path,
      message: `The topic "${item.title}" is a section of the navigation, with no file of its own: the body it has on the platform is not pulled`,
      hint: 'Move the text into an article of the section, or give the section a page in the navigation',
      rule: 'pull-section-body'
    })
  }
  recordPulled(run, op, item, detail, undefined, {})
  await run.store.saveChanges()
  run.recorded = true
  run.emit({type: 'done', op, changed: false})
}
