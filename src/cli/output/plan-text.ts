/**
 * A push plan as text for the terminal: one line per step, grouped by kind,
 * and the summary line. Used by `plan`, `push` and `watch`.
 */
import type {OpKind, PlanOp, PushPlan} from '../../sync/index.js'
import {oneLine} from '../../trust/index.js'

/** The kinds of step in the order a plan lists them. */
export const opOrder: readonly OpKind[] = [
  'create',
  'update',
  'move',
  'rename',
  'permissions',
  'upload',
  'delete',
  'archive',
  'conflict',
  'drift'
]
const signs: Record<OpKind, string> = {
  create: '+',
  update: '~',
  move: '>',
  rename: '~',
  permissions: '*',
  upload: '^',
  delete: '-',
  archive: '_',
  conflict: '!',
  drift: '?'
}

/** One line for an op (its path, title and reason, which quote the repository or the platform, on one line each). */
export function formatOp(op: PlanOp): string {
  const what = op.type ?? 'file'
  const target = op.path === '' ? '(root)' : oneLine(op.path)
  return `  ${signs[op.op]} ${what.padEnd(7)} ${target}  "${oneLine(op.title)}"${op.reason ? `  (${oneLine(op.reason)})` : ''}`
}

/** The summary line of a plan. */
export function summaryLine(plan: PushPlan): string {
  const errors = plan.diagnostics.filter((d) => d.severity === 'error').length
  if (plan.blocked)
    return `Nothing planned: the folder has ${errors === 1 ? '1 error' : `${errors} errors`} (above) to fix first.`
  const parts = opOrder.filter((kind) => plan.summary[kind] > 0).map((kind) => `${plan.summary[kind]} ${kind}`)
  return parts.length === 0 ? 'No changes: the knowledge base matches the folder.' : `Plan: ${parts.join(', ')}.`
}

/** The plan as text, grouped by action. */
export function formatPlan(plan: PushPlan, target: string): string {
  const lines = [
    `Plan for ${oneLine(plan.dir)} -> ${oneLine(target)}, root ${plan.rootTopicId ?? '(knowledge-base root)'}`
  ]
  for (const kind of opOrder) {
    const ops = plan.ops.filter((op) => op.op === kind)
    if (ops.length === 0) continue
    lines.push('', `${kind} (${ops.length}):`, ...ops.map(formatOp))
  }
  const listed = orphansLeft(plan)
  if (listed.length > 0) {
    lines.push(
      '',
      `not in the folder (${listed.length}; deleted with --on-orphan delete (--prune) or moved with --on-orphan archive, only where marked prunable):`
    )
    for (const orphan of listed)
      lines.push(
        `    ${orphan.type.padEnd(7)} ${orphan.remoteId}  "${oneLine(orphan.title)}"  ${orphan.prunable ? 'prunable' : 'kept'}: ${oneLine(orphan.reason)}`
      )
  }
  if (plan.needsConfirmation) lines.push('', `${removalsLine(plan)}: more than allowed without --yes.`)
  lines.push('', summaryLine(plan))
  return lines.join('\n') + '\n'
}

/** The orphans no step of the plan deletes or archives (listed as kept). */
export function orphansLeft(plan: PushPlan): PushPlan['orphans'] {
  const deleted = new Set(plan.ops.filter((op) => op.op === 'delete').map((op) => op.remoteId))
  // Archiving moves every prunable orphan: the topmost by a step each, the others inside them.
  const archiving = plan.ops.some((op) => op.op === 'archive')
  return plan.orphans.filter((orphan) => !deleted.has(orphan.remoteId) && !(archiving && orphan.prunable))
}

/** "3 deletions", "12 archive moves", or both: what needs `--yes`. */
export function removalsLine(plan: PushPlan): string {
  const parts: string[] = []
  if (plan.summary.delete > 0) parts.push(`${plan.summary.delete} deletions`)
  if ((plan.summary.archive ?? 0) > 0) parts.push(`${plan.summary.archive} archive moves`)
  return parts.join(' and ') || '0 deletions'
}
