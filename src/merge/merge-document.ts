/**
 * `mergeDocument`: a web edit pulled back into the author's file. Theirs is
 * the base file patched block by block with the platform's changes, proved
 * to render to the platform's body; the local file's own changes are then
 * merged with theirs line by line.
 */
import {stringifyKb} from '../dialect/index.js'
import {patchEdits, type Grain} from './patch.js'
import {applyEdits} from './splice.js'
import {threeWay} from './three-way.js'
import type {MergeInput, MergeResult} from './types.js'

/** What the patched base is: theirs, or why there is none. */
type Theirs = {ok: true; text: string; changed: number} | {ok: false; reason: string; line?: number}

/**
 * Merges the platform's changes into a file: `merged` (the file to write),
 * `conflict` (the file and the platform changed the same lines: the file is
 * left alone, theirs goes beside it) or `unmergeable` (no faithful patch
 * exists: never a guess).
 */
export function mergeDocument(input: MergeInput): MergeResult {
  const wanted = stringifyKb(input.remoteTree)
  if (stringifyKb(input.baseTree) === wanted) return {status: 'merged', text: input.local, remoteBlocks: 0}
  const theirs = patchedBase(input, wanted)
  if (!theirs.ok) return {status: 'unmergeable', reason: theirs.reason, ...(theirs.line ? {line: theirs.line} : {})}
  if (input.local === input.base) return {status: 'merged', text: theirs.text, remoteBlocks: theirs.changed}
  const merged = threeWay(input.base, input.local, theirs.text)
  if (merged.status === 'conflict') return {status: 'conflict', theirs: theirs.text, conflicts: merged.conflicts}
  return {status: 'merged', text: merged.text, remoteBlocks: theirs.changed}
}

/** The grains of patching, finest first. */
const grains: readonly Grain[] = ['words', 'containers', 'blocks']

/**
 * Base patched with the platform's blocks, proved: it must render to
 * exactly the platform's body. The finest patch is tried first (words,
 * containers child by child: the author's syntax stays); when its proof
 * fails, a coarser one, down to whole blocks.
 */
function patchedBase(input: MergeInput, wanted: string): Theirs {
  let refusal: Theirs = {ok: false, reason: "the patched file would not give the platform's body back"}
  for (const grain of grains) {
    const patch = patchEdits(input, grain)
    if (!patch.ok) {
      refusal = patch
      continue
    }
    const text = applyEdits(input.base, patch.edits)
    if (text !== undefined && input.render(text) === wanted) return {ok: true, text, changed: patch.changed}
    refusal = {ok: false, reason: "the patched file would not give the platform's body back"}
  }
  return refusal
}
