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

/** The status line `line` (`pushed: 1 updated (1 write); watching`) with the names of what was pushed before its `; watching`. */
export function withPushedNames(line: string, result: PushResult): string {
  const names = pushedNames(result)
  if (!names) return line
  const end = line.lastIndexOf('; ')
  return end === -1 ? `${line} (${names})` : `${line.slice(0, end)}: ${names}${line.slice(end)}`
}
