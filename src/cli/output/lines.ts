/** The one-line texts of pushes (push, watch): an action, a push's outcome. */
import {plural} from '../../local/diagnostic-groups.js'
import type {OpKind, PlanOp, PushResult} from '../../sync/shared/types.js'
import {oneLine} from '../../trust/index.js'
import {removalsLine} from './plan-text.js'

const verbs: Record<OpKind, string> = {
  create: 'created',
  update: 'updated',
  move: 'moved',
  rename: 'renamed',
  delete: 'deleted',
  archive: 'archived',
  permissions: 'set permissions of',
  upload: 'uploaded',
  conflict: 'conflict:',
  drift: 'left as is (edited on the platform):'
}

// The one count-and-noun helper, shared with the preview's problem lists.
export {plural}

/** `created article guides/a.md (ID)`. */
export function actionLine(op: PlanOp, remoteId?: string): string {
  return `${verbs[op.op]} ${op.type ?? 'file'} ${oneLine(op.path) || '(root)'}${remoteId ? ` (${remoteId})` : ''}`
}

/** The status line after a push: what was pushed (with `names`, which documents: `a.md, b.md`), or why nothing was. */
export function resultLine(result: PushResult, names = ''): string {
  const named = names ? `: ${names}` : ''
  const counts = new Map<string, number>()
  for (const op of result.done) counts.set(verbs[op.op], (counts.get(verbs[op.op]) ?? 0) + 1)
  const what = [...counts].map(([verb, n]) => `${n} ${verb}`).join(', ')
  switch (result.status) {
    case 'ok':
      return result.done.length === 0
        ? 'up to date; watching'
        : `pushed: ${what} (${plural(result.writes, 'write')})${named}; watching`
    case 'invalid':
      return `not pushed: fix the errors above; watching`
    case 'refused':
      return `not pushed: ${removalsLine(result.plan)} need confirmation (kbsync push --yes); watching`
    case 'conflict':
      return `pushed ${what || 'nothing'}${named}; conflicts left (see the .remote.md files); watching`
    default:
      return `push failed (${plural(result.failed.length, 'step')})${what ? ` after ${what}${named}` : ''}; retrying`
  }
}
