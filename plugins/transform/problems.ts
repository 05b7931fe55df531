/**
 * Problems found while building the dialect's nodes. The from-markdown
 * transform has no file to report to, so it files them under the tree (in a
 * WeakMap, which keeps them out of the tree's data) until `parseKb` or the
 * remark plugin moves them onto the VFile.
 */
import type {Root} from 'mdast'
import type {Point, Position} from 'unist'
import type {VFile} from 'vfile'

/** One problem: a reason, a stable rule id and where it is. */
export interface KbProblem {
  reason: string
  ruleId: string
  place?: Position | Point
}

const store = new WeakMap<Root, KbProblem[]>()

/** Record problems for a tree (appends). */
export function recordProblems(tree: Root, problems: KbProblem[]): void {
  if (problems.length === 0) return
  const list = store.get(tree)
  if (!list) store.set(tree, [...problems])
  // One by one: a body can have more problems than a call takes arguments.
  else for (const problem of problems) list.push(problem)
}

/** Take (and forget) the problems recorded for a tree. */
export function takeProblems(tree: Root): KbProblem[] {
  const list = store.get(tree) ?? []
  store.delete(tree)
  return list
}

/** Move the recorded problems of a tree onto a file as VFileMessages (source `kbsync`). */
export function reportProblems(tree: Root, file: VFile): void {
  for (const problem of takeProblems(tree)) {
    file.message(problem.reason, {place: problem.place, ruleId: problem.ruleId, source: 'kbsync'})
  }
}
