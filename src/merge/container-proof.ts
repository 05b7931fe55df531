/**
 * The proof of a container patched child by child: its patched text must
 * read back to the platform's container, alone when it stands alone in the
 * file, or in the whole file when its text leans on the file (a reference
 * link defined below it, an alert's marker line, the notes list the
 * conversion makes for footnotes).
 */
import type {Parent, RootContent} from 'mdast'
import {stringifyKb} from '../dialect/index.js'
import {rangeOf, rootOf} from './blocks.js'
import {applyEdits, lineBefore, type Edit} from './splice.js'
import type {MergeInput} from './types.js'

/** A top-level container and the one it became, in their parent (base's root). */
export interface ContainerPair {
  parent: Parent
  base: RootContent
  remote: RootContent
}

/**
 * Whether a top-level container's edits (its children's, and its shell's:
 * a recoloured hint's marker) give the platform's container: a container
 * the conversion made (no position) is proved in the file; one of the
 * file's, alone when its edits lie inside it, else in the file. Children's
 * edits that reach outside it (a deleted first item taking the blank line
 * before its list) are refused: the container is replaced whole.
 */
export function provedContainer(
  input: MergeInput,
  starts: readonly number[],
  pair: ContainerPair,
  edits: {children: Edit[]; shell: Edit[]}
): boolean {
  const {base, remote} = pair
  const all = [...edits.shell, ...edits.children]
  const range = rangeOf(base, input.base, starts)
  if (!range) return !base.position && provedInFile(input, pair, all)
  if (lineBefore(input.base, range.start) !== '') return false
  const inside = (edit: Edit): boolean => edit.start >= range.start && edit.end <= range.end
  if (!edits.children.every(inside)) return false
  if (edits.shell.every(inside)) {
    const shifted = all.map((edit) => ({...edit, start: edit.start - range.start, end: edit.end - range.start}))
    const patched = applyEdits(input.base.slice(range.start, range.end), shifted)
    if (patched !== undefined && input.render(patched + '\n') === stringifyKb(rootOf([remote]))) return true
  }
  return provedInFile(input, pair, all)
}

/**
 * Whether a container's edits, applied to the whole file, render to base's
 * body with that container replaced by the remote one.
 */
function provedInFile(input: MergeInput, pair: ContainerPair, edits: Edit[]): boolean {
  const file = applyEdits(input.base, edits)
  if (file === undefined) return false
  const children = pair.parent.children.map((child) => (child === pair.base ? pair.remote : child))
  return input.render(file) === stringifyKb(rootOf(children as RootContent[]))
}
