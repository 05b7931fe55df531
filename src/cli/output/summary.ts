/**
 * Markdown summaries of a plan and of a push, for `$GITHUB_STEP_SUMMARY`.
 */
import type {PushPlan, PushResult} from '../../sync/shared/types.js'
import {countSeverities} from '../../local/diagnostic.js'
import {diagnosticsMarkdown} from './diagnostics-summary.js'
import {cell} from './markdown-cell.js'
import {opOrder} from './plan-text.js'

/** The plan as a Markdown section: counts, then a table of steps (at most `limit` rows). */
export function planSummaryMarkdown(
  plan: PushPlan,
  options: {title?: string; target?: string; limit?: number} = {}
): string {
  const limit = options.limit ?? 200
  const counts = opOrder.filter((k) => plan.summary[k] > 0).map((k) => `${plan.summary[k]} ${k}`)
  const {errors, warnings, infos} = countSeverities(plan.diagnostics)
  const lines = [`### ${options.title ?? 'kbsync plan'}`, '']
  if (options.target)
    lines.push(`Target: ${cell(options.target)}, root ${cell(plan.rootTopicId ?? '(knowledge-base root)')}`, '')
  if (plan.blocked) lines.push('**Nothing planned: the folder has errors to fix first.**')
  else
    lines.push(counts.length === 0 ? 'No changes: the knowledge base matches the folder.' : `**${counts.join(', ')}**`)
  if (errors + warnings + infos > 0) {
    const noted = infos > 0 ? `, ${infos} note(s)` : ''
    lines.push(
      '',
      `${errors} error(s), ${warnings} warning(s)${noted}${plan.blocked ? ': nothing will be written until the errors are fixed' : ''}.`
    )
    lines.push('', diagnosticsMarkdown(plan.diagnostics).trimEnd())
  }
  if (plan.ops.length > 0) {
    lines.push('', '| Action | Type | Path | Title |', '| --- | --- | --- | --- |')
    for (const op of plan.ops.slice(0, limit))
      lines.push(`| ${op.op} | ${op.type ?? 'file'} | ${cell(op.path || '(root)')} | ${cell(op.title)} |`)
    if (plan.ops.length > limit) lines.push('', `… and ${plan.ops.length - limit} more.`)
  }
  return lines.join('\n') + '\n'
}

/** The outcome of a push as a Markdown section. */
export function pushSummaryMarkdown(result: PushResult, options: {target?: string} = {}): string {
  const lines = [
    planSummaryMarkdown(result.plan, {
      title: `kbsync push: ${result.status}`,
      ...(options.target ? {target: options.target} : {})
    }).trimEnd(),
    ''
  ]
  lines.push(`${result.done.length} step(s) done, ${result.writes} write request(s), ${result.failed.length} failed.`)
  for (const failure of result.failed)
    lines.push(`- failed: ${cell(failure.op.op)} ${cell(failure.op.path || '(root)')}: ${cell(failure.error)}`)
  return lines.join('\n') + '\n'
}
