/**
 * Theirs: the base file patched with the platform's changes, block by block.
 * The two trees' children are diffed by key; each changed run of base
 * blocks is replaced in the source by the remote blocks in the author's
 * form, and a container whose shell did not change is patched child by
 * child so its syntax stays (`:::tip`, `!!! note`, `> [!NOTE]`, a list).
 */
import type {Parent, RootContent} from 'mdast'
import {blockKey, isContainer, lineStartsOf, rangeOf, rootOf, shellOf, type SourceRange} from './blocks.js'
import {provedContainer} from './container-proof.js'
import {shellEdits} from './hint-marker.js'
import {alignHunk, diffKeys, type Hunk} from './block-diff.js'
import {blockText, continuationPrefix, indentFollowing, lineBefore, type Edit} from './splice.js'
import {deletionEdit} from './deletion.js'
import {codeContentEdit} from './code.js'
import {patchWords} from './words.js'
import {headingIdParts} from './heading-id.js'
import {tableRowEdits} from './table.js'
import {apartFrom, listMarkerAt, matchListMarkers} from './list-markers.js'
import type {MergeInput} from './types.js'

/**
 * How finely blocks are patched: `words` changes code between its fences and
 * paragraphs and headings word by word, `containers` patches containers
 * child by child, `blocks` replaces whole changed blocks. Each is tried in
 * turn until one is proved.
 */
export type Grain = 'words' | 'containers' | 'blocks'

/** What patching gives: the edits to apply to base, or why it cannot. */
export type PatchResult = {ok: true; edits: Edit[]; changed: number} | {ok: false; reason: string; line?: number}

/** One level of the two trees: a base parent and the remote parent it became (the roots at the top). */
interface Level {
  base: Parent
  remote: Parent
  top: boolean
}

/** What a level's patching reads. */
interface Patching {
  input: MergeInput
  starts: number[]
  /** How finely blocks are patched. */
  grain: Grain
  /** Whether the file's lines end with CRLF. */
  crlf: boolean
}

/** Why a hunk cannot be patched. */
interface Refusal {
  reason: string
  line?: number
}

/**
 * The edits that turn `base` into theirs, from the diff of `baseTree` and
 * `remoteTree`. Containers are patched by recursion, as deep as the trees
 * nest: `blockKey` serialises every top-level block first, which refuses a
 * tree deeper than `maxNesting`, so the call stack stays bounded.
 */
export function patchEdits(input: MergeInput, grain: Grain): PatchResult {
  const crlf = /^[^\n]*\r\n/.test(input.base)
  const patching: Patching = {input, starts: lineStartsOf(input.base), grain, crlf}
  const level: Level = {base: input.baseTree, remote: input.remoteTree, top: true}
  const hunks = diffKeys(keysOf(level.base), keysOf(level.remote))
  const result = patchLevel(patching, level, hunks)
  if ('reason' in result) return {ok: false, ...result}
  const changed = hunks.reduce((sum, h) => sum + Math.max(h.baseEnd - h.baseStart, h.remoteEnd - h.remoteStart), 0)
  return {ok: true, edits: result, changed}
}

function keysOf(parent: Parent): string[] {
  return parent.children.map((child) => blockKey(child, parent))
}

/** The edits of one level's hunks. */
function patchLevel(patching: Patching, level: Level, hunks: readonly Hunk[]): Edit[] | Refusal {
  const edits: Edit[] = []
  for (const hunk of hunks) {
    const result = patchHunk(patching, level, hunk)
    if ('reason' in result) return result
    edits.push(...result)
  }
  // A file written with CRLF line breaks gets CRLF in what is written into it.
  if (!patching.crlf) return edits
  return edits.map((edit) => ({...edit, text: edit.text.replace(/\r?\n/g, '\r\n')}))
}

/** The edits of one hunk. */
function patchHunk(patching: Patching, level: Level, hunk: Hunk, aligned = false): Edit[] | Refusal {
  const bases = level.base.children.slice(hunk.baseStart, hunk.baseEnd)
  const remotes = level.remote.children.slice(hunk.remoteStart, hunk.remoteEnd)
  if (bases.length === 0) return insertion(patching, level, hunk, remotes)
  if (remotes.length === 0) return deletion(patching, level, bases)
  if (bases.length !== remotes.length) {
    // Blocks of the same kind on both sides are patched in place (a list that gained an item and a paragraph
    // after it: the list keeps its lines); the others are inserted, deleted or replaced as runs.
    const parts = aligned ? [hunk] : alignHunk(hunk, bases.map(kindOf), remotes.map(kindOf))
    if (parts.length === 1) return replacement(patching, level, bases, remotes, hunk.remoteStart)
    return collect(parts.map((part) => patchHunk(patching, level, part, true)))
  }
  // As many blocks on each side: each replaced by its counterpart, so what lies between them stays.
  const edits: Edit[] = []
  for (const [index, base] of bases.entries()) {
    const remote = remotes[index]!
    const fine = containerEdits(patching, level, base, remote)
    const result = fine ?? replacement(patching, level, [base], [remote], hunk.remoteStart + index)
    if ('reason' in result) return result
    edits.push(...result)
  }
  return edits
}

/** A block's kind, for pairing blocks within a hunk: its type, and a container's shell. */
function kindOf(block: RootContent): string {
  return isContainer(block) ? shellOf(block) : block.type
}

/** The edits of several results, or the first refusal. */
function collect(results: ReadonlyArray<Edit[] | Refusal>): Edit[] | Refusal {
  const edits: Edit[] = []
  for (const result of results) {
    if ('reason' in result) return result
    edits.push(...result)
  }
  return edits
}

/**
 * A container's edits child by child, when its shell did not change (or
 * only a hint block's colour, written in its marker: `hint-marker.ts`) and
 * they give the remote container back; undefined to replace it whole. A
 * top-level container is proved (`container-proof.ts`), so one container
 * that cannot keep its syntax (a changed admonition title, say) does not
 * cost the others theirs.
 */
function containerEdits(patching: Patching, level: Level, base: RootContent, remote: RootContent): Edit[] | undefined {
  if (patching.grain === 'blocks' || !isContainer(base) || !isContainer(remote)) return undefined
  const shells = shellEdits(patching.input.base, base, remote)
  if (!shells || !holdsSourceText(base)) return undefined
  const inner: Level = {base, remote, top: false}
  const edits = patchLevel(patching, inner, diffKeys(keysOf(base), keysOf(remote)))
  if ('reason' in edits) return undefined
  const pair = {parent: level.base, base, remote}
  for (const shell of shells)
    if (!level.top || provedContainer(patching.input, patching.starts, pair, {children: edits, shell}))
      return [...shell, ...edits]
  return undefined
}

/**
 * Whether a container holds text of the file: a child with a position, or a
 * container child that does (a footnote's text, in the notes list and item
 * the conversion made for it).
 */
function holdsSourceText(container: Parent): boolean {
  return container.children.some((child) => child.position || (isContainer(child) && holdsSourceText(child)))
}

/** The source ranges of base blocks the patch may rewrite, or why one may not be. */
function ownRanges(patching: Patching, bases: readonly RootContent[]): SourceRange[] | Refusal {
  const ranges: SourceRange[] = []
  for (const base of bases) {
    const range = rangeOf(base, patching.input.base, patching.starts)
    if (!range)
      return {
        reason: `a ${base.type} the platform changed is not text of the file (it was generated or included)`,
        ...(base.position ? {line: base.position.start.line} : {})
      }
    if (!patching.input.ownLines(range.startLine, range.endLine))
      return {
        reason: `lines ${range.startLine}-${range.endLine}, which the platform changed, are not the file's own text (an include, a template value or front matter)`,
        line: range.startLine
      }
    ranges.push(range)
  }
  return ranges
}

/** Remote blocks in the author's form, as a run of `parent`'s children from `index`. */
function authorText(patching: Patching, level: Level, remotes: readonly RootContent[], index: number): string {
  return blockText(patching.input.toAuthor(rootOf(remotes, level.top ? undefined : level.remote, index)))
}

/** Base blocks replaced by remote blocks: the first's start to the last's end. */
function replacement(
  patching: Patching,
  level: Level,
  bases: readonly RootContent[],
  remotes: readonly RootContent[],
  index: number
): Edit[] | Refusal {
  const ranges = ownRanges(patching, bases)
  if ('reason' in ranges) return ranges
  const start = ranges[0]!.start
  const end = ranges.at(-1)!.end
  const prefix = continuationPrefix(lineBefore(patching.input.base, start))
  const written = matchListMarkers(authorText(patching, level, remotes, index), patching.input.base, level.base, start)
  const edit = {start, end, text: indentFollowing(written, prefix)}
  if (patching.grain !== 'words' || bases.length !== 1 || remotes.length !== 1) return [edit]
  const {input, starts} = patching
  const rows = tableRowEdits(input.base, starts, bases[0]!, remotes[0]!, input.toAuthor)
  return rows ?? [inPlace(patching, {range: ranges[0]!, base: bases[0]!, remote: remotes[0]!}, edit) ?? edit]
}

/** One block replaced by another, with the range of the first and the edit that writes the second. */
interface Pair {
  range: SourceRange
  base: RootContent
  remote: RootContent
}

/**
 * A block changed in place, keeping more of the author's text than the
 * written block: code between its own fences, a paragraph or heading word
 * by word (what the author wrote around the change stays: emphasis
 * markers, reference links, line breaks); undefined when it does not apply.
 */
function inPlace(patching: Patching, pair: Pair, edit: Edit): Edit | undefined {
  const {input} = patching
  const {range, base, remote} = pair
  if (base.type === 'code') return codeContentEdit(input.base, range, base, remote)
  if (base.type !== remote.type || (base.type !== 'paragraph' && base.type !== 'heading')) return undefined
  const prefix = continuationPrefix(lineBefore(input.base, range.start))
  const before = indentFollowing(blockText(input.toAuthor(rootOf([base]))), prefix)
  const source = input.base.slice(range.start, range.end)
  const parts = (base.type === 'heading' && headingIdParts(source, before, edit.text)) || {
    source,
    before,
    after: edit.text,
    suffix: ''
  }
  const words = patchWords(parts.source, parts.before, parts.after, prefix.includes('>'))
  const text = words === undefined ? undefined : words + parts.suffix
  return text === undefined || text === edit.text ? undefined : {...edit, text}
}

/** Remote blocks inserted where base had none: after the previous block, or before the next one. */
function insertion(patching: Patching, level: Level, hunk: Hunk, remotes: readonly RootContent[]): Edit[] | Refusal {
  const {base: source} = patching.input
  const length = source.length
  const near = (index: number): SourceRange | undefined => {
    const block = level.base.children[index]
    return block && rangeOf(block, source, patching.starts)
  }
  const previous = near(hunk.baseStart - 1)
  const next = near(hunk.baseEnd)
  const tight = isTight(level.base)
  const anchor = previous ?? next
  if (!anchor) {
    if (!level.top) return {reason: 'the platform added blocks to a container the file holds none of'}
    const text = authorText(patching, level, remotes, hunk.remoteStart)
    const separator = source === '' ? '' : source.endsWith('\n') ? '\n' : '\n\n'
    return [{start: length, end: length, text: separator + text + '\n'}]
  }
  const prefix = continuationPrefix(lineBefore(source, anchor.start))
  const between = tight ? '\n' : '\n' + prefix.trimEnd() + '\n'
  let written = matchListMarkers(
    authorText(patching, level, remotes, hunk.remoteStart),
    source,
    level.base,
    anchor.start
  )
  if (remotes.length === 1 && remotes[0]!.type === 'list') {
    const markerOf = (index: number, range: SourceRange | undefined): string | undefined =>
      range && level.base.children[index]?.type === 'list' ? listMarkerAt(source, range.start) : undefined
    written = apartFrom(written, [markerOf(hunk.baseStart - 1, previous), markerOf(hunk.baseEnd, next)])
  }
  const text = indentFollowing(written, prefix)
  if (previous) return [{start: previous.end, end: previous.end, text: between + prefix + text}]
  return [{start: anchor.start, end: anchor.start, text: text + between + prefix}]
}

/** Base blocks the platform deleted: their lines and one blank line beside them (none in a tight list). */
function deletion(patching: Patching, level: Level, bases: readonly RootContent[]): Edit[] | Refusal {
  const ranges = ownRanges(patching, bases)
  if ('reason' in ranges) return ranges
  const tight = isTight(level.base)
  return [deletionEdit(patching.input.base, ranges[0]!.start, ranges.at(-1)!.end, tight)]
}

/** Whether a container is a tight list (or list item): its blocks are not separated by blank lines. */
function isTight(container: Parent): boolean {
  return (container.type === 'list' || container.type === 'listItem') && !(container as {spread?: boolean}).spread
}
