/**
 * What a watch push changed, by name: the status line says which documents
 * a save touched, not only how many (on a terminal the per-step lines go to
 * the progress bar and vanish with it).
 */
import type {PushResult} from '../../sync/shared/types.js'

/** `a.md, guides/b.md, +2 more`: the paths the push wrote, each once, in order; empty when it wrote none. */
export function pushedNames(result: PushResult, shown = 3): string {
  const paths = [...new Set(result.done.map((op) => op.path || '(root)'))]
  const more = paths.length > shown ? `, +${paths.length - shown} more` : ''
  return paths.slice(0, shown).join(', ') + more
}
