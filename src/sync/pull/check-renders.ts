/**
 * The renders of the check after a pull, on the conversion pool: each
 * pulled body is rendered where the pool runs it (`check-task.ts`), a few at
 * a time so the workers and the main thread stay busy while what is held
 * stays small (the answers come back in the order of the documents). A
 * body whose tree is at hand (the proof's, handed over: `handedTreesMax`)
 * is rendered here from that tree: sent, it would be parsed again. A body
 * whose render its proof predicted (`render-prediction.ts`), and whose
 * references the folder resolves as predicted, is not rendered at all.
 */
import type {LocalNode} from '../../local/index.js'
import type {TaskRunner} from '../../workers/index.js'
import type {RenderContext} from '../shared/render.js'
import {checkpoint} from '../shared/stopped.js'
import {checkRenderOf, checkRequest, type CheckRender} from './check-task.js'

/**
 * The render of each of `nodes` (each has a body) with `context`, in their
 * order, run on `pool` (`predicted` gives the render of a node known without
 * rendering it, when it is). Rejects with the first render that throws (the
 * others are not started), or when `signal` stops the run.
 */
export async function renderChecks(
  nodes: readonly LocalNode[],
  context: RenderContext,
  pool: TaskRunner,
  signal?: AbortSignal,
  predicted: (node: LocalNode) => CheckRender | undefined = () => undefined
): Promise<CheckRender[]> {
  const renders: CheckRender[] = []
  let next = 0
  let failed = false
  // Two requests per thread that renders (the workers and this one): the next is queued while one renders.
  const lanes = Math.min(nodes.length, 2 * (pool.size + 1))
  const lane = async () => {
    while (!failed && next < nodes.length) {
      const index = next++
      await checkpoint(signal)
      try {
        const node = nodes[index]!
        renders[index] =
          predicted(node) ??
          (node.tree
            ? checkRenderOf(node, context)
            : ((await pool.run('renderCheck', checkRequest(node, context))) as CheckRender))
      } catch (error) {
        failed = true
        throw error
      }
    }
  }
  await Promise.all(Array.from({length: lanes}, lane))
  return renders
}
