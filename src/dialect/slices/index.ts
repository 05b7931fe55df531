/**
 * A parse whose memory is bounded by the slice, not by the longest table or
 * list (issue 32). The document is parsed without the middle lines of each
 * long run (`runs.ts`): the run's head and last line stay, so the document
 * reads every line around the run as the whole source does, and the parse
 * confirms the run is one table (one list) there. The middle lines are
 * parsed a slice at a time (a table's slices after its header and delimiter
 * row), each confirmed to be only rows (single-line tight items), and their
 * nodes go in between, every position moved to the line and offset it has
 * in the source. Whatever is not confirmed is parsed whole, as before: the
 * tree is the one the whole parse makes.
 */
import type {List, Nodes, Root, Table} from 'mdast'
import {recordKept, takeKept} from '../../../plugins/transform/kept.js'
import {recordProblems, takeProblems} from '../../../plugins/transform/problems.js'
import {compactChildren} from './compact.js'
import {linearEditMaps} from '../linear-edit-map.js'
import {announceLongParse} from './long-parse.js'
import {findRuns, lineStarts, type Run} from './runs.js'
import {Shifter, type Shift} from './shift.js'

/** When a parse slices: sources and runs this long; tests slice small ones. */
export interface SliceLimits {
  /** A shorter source is parsed whole. */
  minimumSource: number
  /** A run with fewer middle lines is parsed with the document: slicing it saves nothing worth the work. */
  minimumMiddle: number
  /** How many middle lines one slice parses (micromark's cost per line grows past a hundred or so). */
  sliceLines: number
}

/** The limits a parse slices with (frozen: a test passes its own to `parseInSlices`). */
export const sliceLimits: Readonly<SliceLimits> = Object.freeze({
  minimumSource: 32_768,
  minimumMiddle: 512,
  sliceLines: 128
})

/**
 * Parses `source` with `parse` (a parse of a whole source: the same tree,
 * positions and recorded problems result), long runs of table rows and list
 * items in slices when the parse confirms them (see the module comment).
 */
export function parseInSlices(
  source: string,
  parse: (source: string) => Root,
  limits: Readonly<SliceLimits> = sliceLimits
): Root {
  linearEditMaps()
  if (source.length < limits.minimumSource) return parse(source)
  const tree = parseLong(source, parse, limits) ?? parse(source)
  // A long body's tree lives on (a pull holds several copies of it): its arrays at their length.
  compactChildren(tree)
  return tree
}

/** The tree of a long source whose runs the parse confirms, else undefined. */
function parseLong(source: string, parse: (source: string) => Root, limits: Readonly<SliceLimits>): Root | undefined {
  // A definition anywhere can name what a slice refers to; a lone CR is a line ending these lines do not count.
  if (source.includes(']:') || source.includes('\r')) return undefined
  const starts = lineStarts(source)
  const runs = findRuns(source, starts, limits.minimumMiddle)
  announceLongParse(runs.reduce((lines, run) => lines + run.last - run.first - run.head, 0))
  return runs.length === 0 ? undefined : parseRuns({source, starts, parse, sliceLines: limits.sliceLines}, runs)
}

/** What the parts of one parse share. */
interface Parts {
  source: string
  starts: number[]
  parse: (source: string) => Root
  sliceLines: number
}

/** The merged tree, or undefined when the parse does not confirm a run as the module comment says. */
function parseRuns(parts: Parts, runs: Run[]): Root | undefined {
  const {source, starts, parse} = parts
  const offsetOf = (line: number): number => starts[line] ?? source.length + 1
  let stub = ''
  let resume = 0
  const shifts: Shift[] = []
  for (const run of runs) {
    const cut = offsetOf(run.first + run.head)
    stub += source.slice(resume, cut)
    resume = offsetOf(run.last)
    const removed = run.last - run.first - run.head
    const previous = shifts[shifts.length - 1]
    shifts.push({
      fromLine: run.first + run.head + 1 - (previous?.lines ?? 0),
      fromOffset: cut - (previous?.offset ?? 0),
      lines: (previous?.lines ?? 0) + removed,
      offset: (previous?.offset ?? 0) + resume - cut
    })
  }
  stub += source.slice(resume)
  const tree = parse(stub)
  // Runs whose construct the parse confirms, found before any position moves (their lines are the stub's).
  const nodes = runs.map((run, index) => constructAt(tree, run, run.first + 1 - (shifts[index - 1]?.lines ?? 0)))
  if (nodes.some((node) => node === undefined)) return undefined
  const shifter = new Shifter(shifts)
  shifter.tree(tree)
  const problems = takeProblems(tree)
  for (const problem of problems) shifter.place(problem.place)
  const kept = takeKept(tree).map((span) => ({start: shifter.offset(span.start), end: shifter.offset(span.end)}))
  for (const [index, run] of runs.entries()) {
    const middle = parseMiddle(parts, offsetOf, run, nodes[index]!)
    if (!middle) return undefined
    // After the head, before the last line's row (item); one by one: a run has more than a call takes arguments.
    const children = nodes[index]!.children as Nodes[]
    const tail = children.splice(1)
    for (const child of middle.children) children.push(child)
    for (const child of tail) children.push(child)
    for (const problem of middle.problems) problems.push(problem)
    for (const span of middle.kept) kept.push(span)
  }
  recordProblems(tree, problems)
  recordKept(tree, kept)
  return tree
}

/**
 * The table (list) of `run` in the document without its middle lines: it starts at the margin of line `line`, and its
 * second child (row, item) at the line after its head (a list's first item is one line).
 */
function constructAt(tree: Root, run: Run, line: number): Table | List | undefined {
  const type = run.kind
  const stack: Nodes[] = [tree]
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === type && node.position?.start.line === line && node.position.start.column === 1) {
      const construct = node as Table | List
      const second = construct.children[1]
      if (second?.position?.start.line !== line + run.head) return undefined
      if (construct.type === 'list' && construct.children[0]!.position!.end.line !== line) return undefined
      return construct
    }
    if ('children' in node) for (const child of node.children) stack.push(child)
  }
  return undefined
}

/** What the middle of a run parses to: its rows (items), and the problems and kept spans they recorded. */
interface Middle {
  children: Nodes[]
  problems: ReturnType<typeof takeProblems>
  kept: ReturnType<typeof takeKept>
}

/** The middle lines of `run` parsed a slice at a time, positions in the source; undefined if a slice is not all rows. */
function parseMiddle(
  parts: Parts,
  offsetOf: (line: number) => number,
  run: Run,
  node: Table | List
): Middle | undefined {
  const {source, parse, sliceLines} = parts
  const prefix = run.kind === 'table' ? source.slice(offsetOf(run.first), offsetOf(run.first + 2)) : ''
  const prefixLines = run.kind === 'table' ? 2 : 0
  const middle: Middle = {children: [], problems: [], kept: []}
  for (let from = run.first + run.head; from < run.last; from += sliceLines) {
    const to = Math.min(from + sliceLines, run.last)
    const tree = parse(prefix + source.slice(offsetOf(from), offsetOf(to)))
    const slice = tree.children.length === 1 ? tree.children[0] : undefined
    const rows = slice && confirmed(slice, node, to - from + prefixLines)
    if (!rows) return undefined
    const shift: Shift = {fromLine: 1, fromOffset: 0, lines: from - prefixLines, offset: offsetOf(from) - prefix.length}
    const shifter = new Shifter([shift])
    shifter.tree(tree)
    // A table's header is parsed with every slice: what it recorded is the document's already.
    for (const problem of takeProblems(tree)) {
      shifter.place(problem.place)
      const line = problem.place && ('start' in problem.place ? problem.place.start.line : problem.place.line)
      if (line === undefined || line > from) middle.problems.push(problem)
    }
    for (const span of takeKept(tree))
      if (span.start >= prefix.length)
        middle.kept.push({start: shifter.offset(span.start), end: shifter.offset(span.end)})
    for (let index = prefixLines === 2 ? 1 : 0; index < rows.length; index++) middle.children.push(rows[index]!)
  }
  return middle
}

/** The slice's rows (items) when it is one construct like `node` of `count` single-line children, else undefined. */
function confirmed(slice: Nodes, node: Table | List, count: number): Nodes[] | undefined {
  if (slice.type !== node.type || slice.children.length !== (node.type === 'table' ? count - 1 : count))
    return undefined
  if (slice.type === 'table') {
    const align = (node as Table).align ?? []
    return (slice.align ?? []).every((value, index) => value === (align[index] ?? null)) ? slice.children : undefined
  }
  const list = node as List
  if (slice.spread || slice.ordered !== list.ordered) return undefined
  for (const item of slice.children)
    if (item.spread || item.position?.start.line !== item.position?.end.line) return undefined
  return slice.children
}
