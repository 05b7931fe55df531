/**
 * Where links of pulled bodies may point: the file of each document after
 * the pull, or nothing when the folder will not hold it (deleted locally, a
 * conflict kept elsewhere). A link to such a document stays an article or
 * topic link with its id, so pull never writes a relative link to a file
 * that is not there; each such link, and each relative URL of a remote body
 * written as an absolute one, is a warning naming file and line.
 */
import type {Diagnostic} from '../../local/index.js'
import {fileOfNode} from '../shared/document-layout.js'
import type {PullPlan} from './plan.js'
import type {ItemRef, RewrittenUrl} from '../shared/platform-links.js'
import type {PullContext} from './pull.js'

/**
 * The file of the document `id` after `plan` is applied (repo-relative):
 * undefined when it is not pulled (outside the root, skipped), null when it
 * is pulled but the folder will not hold it where the plan puts it.
 */
export type DocumentAfterPull = (kind: ItemRef['kind'], id: string) => string | null | undefined

/** Where each document of `plan` is once it is applied (pure). */
export function documentsAfterPull(
  plan: PullPlan,
  {scan, remote}: Pick<PullContext, 'scan' | 'remote'>
): DocumentAfterPull {
  const opOf = new Map(plan.ops.map((op) => [op.id, op]))
  return (kind, id) => {
    if (kind === 'topic' && id === remote.rootTopicId && id !== null) return '_index.md'
    const at = plan.paths[id]
    if (at === undefined || remote.items[id]?.type !== kind) return undefined
    const op = opOf.get(id)
    // A conflict keeps the local file where it is (none when it was deleted locally).
    // A navigation section has no file to link to (`''`): the link keeps its id.
    const file = (value: string) => (value === '' ? null : value)
    if (op?.op === 'conflict') return scan.byPath[op.path] ? file(fileOfNode(scan, op.path, kind)) : null
    if (op) return file(plan.files[id] ?? '')
    // Nothing to pull: the document is where the folder has it, if it has it.
    return scan.byPath[at] ? file(plan.files[id] ?? '') : null
  }
}

/**
 * The warnings of the document `file` written as `text`: targets it links
 * to that the folder will not hold (`missed`), and relative URLs written
 * as absolute ones (`rewritten`). `titleOf` names a target.
 */
export function linkWarnings(
  file: string,
  text: string,
  missed: readonly ItemRef[],
  rewritten: readonly RewrittenUrl[],
  titleOf: (id: string) => string | undefined
): Diagnostic[] {
  if (missed.length === 0 && rewritten.length === 0) return []
  const lines = text.split('\n')
  const lineOf = (needles: string[]) => {
    const index = lines.findIndex((line) => needles.some((needle) => line.includes(needle)))
    return index === -1 ? {} : {line: index + 1}
  }
  const warnings: Diagnostic[] = []
  for (const ref of missed) {
    warnings.push({
      severity: 'warning',
      file,
      ...lineOf([`data-${ref.kind}-id="${ref.id}"`, ref.id]),
      message: `The link to "${titleOf(ref.id) ?? ref.id}" (${ref.kind} ${ref.id}) is kept as a link to the platform's ${ref.kind}: its file is not in the folder, so a relative link would point at nothing`,
      hint: 'Pull again once the file is back (or the conflict resolved) to get a relative link',
      rule: 'pull-link-target-missing'
    })
  }
  for (const {from, to} of rewritten) {
    warnings.push({
      severity: 'warning',
      file,
      ...lineOf([to]),
      message: `The link \`${from}\` is relative on the platform, where it leads to ${to}: written as that address, since in the folder it would name a file that is not there`,
      hint: 'Make it a link to a document of the folder if that is what it meant',
      rule: 'pull-relative-link'
    })
  }
  return warnings
}
