/**
 * Constructs a processor does not register, written back as they were.
 * The dialect's tags share one tokenizer, so a processor with only some
 * construct plugins (`remarkKbUnderline` alone) still reads every dialect
 * tag, and pairs them (the extent of a `<details>` is what its tags
 * enclose); a pair whose construct is not registered builds no node and is
 * recorded here as a span of the source. When the processor runs, the
 * nodes of each span (its open tag to its close tag, siblings in one
 * parent) become one `html` node holding the span's source text, which is
 * written back unchanged, as without the dialect.
 */
import type {Html, Nodes, Parents, Root} from 'mdast'
import type {Position} from 'unist'

/** A span of the source by offsets. */
export interface Span {
  start: number
  end: number
}

const store = new WeakMap<Root, Span[]>()

/** Parents whose children sit in lines of text: a span among them has no container markers to take away. */
const phrasingParents = new Set([
  'paragraph',
  'heading',
  'tableCell',
  'emphasis',
  'strong',
  'delete',
  'link',
  'linkReference',
  'underline',
  'mark',
  'articleLink',
  'attachment',
  'detailsSummary'
])

/** The span of a pair's tags, if the nodes have offsets. */
export function spanOf(position: Position | undefined): Span | undefined {
  const start = position?.start.offset
  const end = position?.end.offset
  return start === undefined || end === undefined ? undefined : {start, end}
}

/** Record spans kept as written for a tree (appends). */
export function recordKept(tree: Root, spans: Span[]): void {
  if (spans.length === 0) return
  const list = store.get(tree)
  if (!list) store.set(tree, [...spans])
  else for (const span of spans) list.push(span)
}

/** Take (and forget) the spans recorded for a tree: a tree parsed in parts gathers its parts' spans. */
export function takeKept(tree: Root): Span[] {
  const spans = store.get(tree) ?? []
  store.delete(tree)
  return spans
}

/**
 * Replace, in `tree`, each run of siblings from an `html` tag starting a
 * recorded span to the node ending it by one `html` node with the span's
 * text of `source`; then forget the spans. An outer span is replaced before
 * the spans inside it are reached.
 */
export function restoreKept(tree: Root, source: string): void {
  const spans = store.get(tree)
  store.delete(tree)
  if (!spans) return
  const ends = new Map<number, number>()
  for (const {start, end} of spans) ends.set(start, Math.max(ends.get(start) ?? end, end))
  // An explicit stack: a body nests deeper than the call stack goes.
  const parents: Parents[] = [tree]
  for (let parent = parents.pop(); parent; parent = parents.pop()) {
    const children = parent.children as Nodes[]
    let out: Nodes[] | undefined
    for (let index = 0; index < children.length; index++) {
      const child = children[index]!
      const last = child.type === 'html' ? spanEnd(children, index, ends) : -1
      if (last >= 0) {
        out ??= children.slice(0, index)
        out.push(asWritten(source, child, children[last]!, parent !== tree && !phrasingParents.has(parent.type)))
        index = last
        continue
      }
      out?.push(child)
      if ('children' in child) parents.push(child)
    }
    if (out) parent.children = out as typeof parent.children
  }
}

/** The index of the sibling ending the span `children[index]` starts, or -1. */
function spanEnd(children: Nodes[], index: number, ends: Map<number, number>): number {
  const start = children[index]!.position?.start.offset
  const end = start === undefined ? undefined : ends.get(start)
  if (end === undefined) return -1
  for (let last = index; last < children.length; last++) {
    const offsets = children[last]!.position
    if (offsets?.end.offset === end) return last
    if ((offsets?.start.offset ?? end) >= end) return -1
  }
  return -1
}

/**
 * The source of `first` to `last` as one `html` node. Inside a container
 * (`nested`: a block quote, a list item), the lines after the first start
 * with the container's markers, which are not the node's text: they are
 * taken away up to the first line's column, as CommonMark does.
 */
function asWritten(source: string, first: Nodes, last: Nodes, nested: boolean): Html {
  const start = first.position!.start
  const end = last.position!.end
  let value = source.slice(start.offset, end.offset)
  const width = start.column - 1
  // A line's markers, at most up to the first line's column: a lazy line has none (and its spaces are not text).
  if (nested && width > 0 && value.includes('\n'))
    value = value.replace(new RegExp(`(\\r?\\n|\\r)[ \\t>]{0,${width}}`, 'g'), '$1')
  return {type: 'html', value, position: {start, end}}
}
