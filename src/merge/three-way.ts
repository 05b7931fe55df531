/**
 * The line-level three-way merge (as `git merge-file`): the changes of the
 * local file and of theirs, both against base, where they do not overlap.
 */
import {diff3Merge} from 'node-diff3'
import type {MergeConflict} from './types.js'

/** What a three-way merge gives: the merged text, or where both sides changed the same lines. */
export type ThreeWayResult = {status: 'merged'; text: string} | {status: 'conflict'; conflicts: MergeConflict[]}

/**
 * Merges the changes `local` and `theirs` made to `base`, line by line.
 * Changes that touch the same lines (or adjacent ones, as git takes them)
 * are conflicts, each at its first line in `local`; the same change made on
 * both sides is not one.
 */
export function threeWay(base: string, local: string, theirs: string): ThreeWayResult {
  const regions = diff3Merge(local.split('\n'), base.split('\n'), theirs.split('\n'), {excludeFalseConflicts: true})
  const lines: string[] = []
  const conflicts: MergeConflict[] = []
  for (const region of regions) {
    if (region.ok) {
      lines.push(...region.ok)
      continue
    }
    if (!region.conflict) continue
    const {a, aIndex, b} = region.conflict
    const line = aIndex + 1
    conflicts.push({line, message: conflictMessage(line, a.length, b.length)})
    lines.push(...a)
  }
  if (conflicts.length > 0) return {status: 'conflict', conflicts}
  return {status: 'merged', text: lines.join('\n')}
}

function conflictMessage(line: number, localLines: number, theirLines: number): string {
  const where = localLines <= 1 ? `line ${line}` : `lines ${line}-${line + localLines - 1}`
  const what = `${theirLines === 0 ? 'deleted' : 'changed'} ${localLines <= 1 ? 'it' : 'them'}`
  return `the file changed ${where} since the last sync and the platform ${what} too: keep one side or combine them`
}
