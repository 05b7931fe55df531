/**
 * The nesting limit of the dialect's trees, defined once. Markdown lets a
 * short text nest without end (`>` 5,000 times is 5 KB), and the libraries
 * that serialise and render trees recurse once or more per level. Measured
 * on Node 20's default stack, in nodes below the root: `structuredClone`
 * fails past about 1,180, mdast-util-to-markdown past 1,300 (lists; 1,370
 * quotes), `kbTreeToGfm` past 1,800, mdast-util-to-hast with
 * hast-util-to-html past 2,000. Documents never need more than a few levels,
 * so trees are held to `maxNesting`, more than ten times below that (and
 * `test/dialect/depth.test.ts` serialises trees at the limit with 1,000
 * frames already on the stack): a parse caps deeper subtrees (their source
 * is kept as one leaf, with a message that names the line), and a
 * serialiser refuses a tree built deeper by other code with a
 * `NestingError` instead of a stack overflow. Every walk here uses an
 * explicit stack: it is what runs on trees of any depth.
 */
import type {Html, Nodes, Parents, Root, Text} from 'mdast'
import type {Extension} from 'mdast-util-from-markdown'
import type {Position} from 'unist'
import {recordProblems, type KbProblem} from './transform/problems.js'
import {textOf} from './transform/tags.js'

/**
 * The deepest a node may sit below the root (the root's children are at 1).
 * A list level takes two (list and item), so this is 50 levels of nested
 * lists, and about ten times under the depth the libraries survive.
 */
export const maxNesting = 100

/** The rule id of a subtree nested deeper than `maxNesting`. */
export const nestingRule = 'kb-nesting-too-deep'

// Nodes only their own parent type may hold: a cut there replaces that parent (a list, a table) instead.
const heldByParentType = new Set(['listItem', 'tableRow', 'tableCell'])

/** A node found nested too deep: the node at the limit that has children, and where it is. */
export interface TooDeep {
  node: Nodes
  /** Its depth below the root (`maxNesting` for a tree over the limit). */
  depth: number
}

/**
 * The first node (in document order) at depth `max` that still has
 * children, i.e. whose subtree nests deeper than `max`; undefined when the
 * tree is within the limit. Linear, and needs no call stack for depth.
 */
export function findTooDeep(tree: Parents, max: number = maxNesting): TooDeep | undefined {
  const stack: Array<[Nodes, number]> = [[tree, 0]]
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [node, depth] = entry
    const children = 'children' in node ? (node.children as Nodes[] | undefined) : undefined
    if (!children || children.length === 0) continue
    if (depth >= max) return {node, depth}
    for (let index = children.length - 1; index >= 0; index--) stack.push([children[index]!, depth + 1])
  }
  return undefined
}

/** A tree (built by code, not parsed) nests deeper than a serialiser accepts. */
export class NestingError extends Error {
  constructor(
    readonly max: number,
    readonly place: Position | undefined
  ) {
    super(
      `${nestingReason(max, place)}: kbsync does not serialise a tree this deep (it would exhaust the call stack). Flatten it, or build it with parseKb or gfmToKbTree, which cap deeper nesting with a warning.`
    )
    this.name = 'NestingError'
  }
}

/**
 * Throws a `NestingError` naming the limit and the line when `tree` nests
 * deeper than `max`; the serialisers call it before they recurse.
 */
export function assertNesting(tree: Parents, max: number = maxNesting): void {
  const found = findTooDeep(tree, max)
  if (found) throw new NestingError(max, found.node.position)
}

/** How a capped subtree is kept: as `html` (the dialect's raw source) or as `text` (shown, never markup). */
export type NestingLeaf = 'html' | 'text'

/** Options of `capNesting`. */
export interface CapOptions {
  /** The source the tree was parsed from: a capped subtree keeps its exact text (else its text values). */
  source?: string
  /** The node a capped subtree becomes (default `html`). */
  leaf?: NestingLeaf
  /** The limit (default `maxNesting`). */
  max?: number
}

/**
 * Holds `tree` to `max` levels, in place: each subtree that nests deeper is
 * replaced by one leaf holding its source text (a list or a table whose
 * item or cell is at the limit is replaced whole, so every parent keeps
 * children of the types it takes). Returns one problem per capped subtree,
 * with its place. Linear, and needs no call stack for depth.
 */
export function capNesting(tree: Parents, options: CapOptions = {}): KbProblem[] {
  const max = options.max ?? maxNesting
  const problems: KbProblem[] = []
  // The branch being walked: ancestors of the current node and their indices (preorder keeps them in place).
  const branch: Parents[] = []
  const indices: number[] = []
  const stack: Array<[Nodes, number, number]> = [[tree, 0, 0]]
  const cuts: Array<{parent: Parents; index: number; node: Nodes}> = []
  // Once a subtree is cut, what is left of it on the stack (deeper than the cut) is skipped.
  let cutDepth = Infinity
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [node, depth, index] = entry
    if (depth > cutDepth) continue
    cutDepth = Infinity
    const children = 'children' in node ? (node.children as Nodes[] | undefined) : undefined
    if (!children || children.length === 0) continue
    branch[depth] = node as Parents
    indices[depth] = index
    if (depth < max) {
      for (let at = children.length - 1; at >= 0; at--) stack.push([children[at]!, depth + 1, at])
      continue
    }
    let at = depth
    while (at > 1 && heldByParentType.has(branch[at]!.type)) at--
    cuts.push({parent: branch[at - 1]!, index: indices[at]!, node: branch[at]!})
    cutDepth = at
  }
  for (const {parent, index, node} of cuts) {
    ;(parent.children as Nodes[])[index] = leafOf(node, options.source, options.leaf ?? 'html')
    const reason = `${nestingReason(max, node.position)}: the platform's editor cannot show it, and kbsync keeps what is deeper as text. Flatten the lists, quotes or blocks there to at most ${max} levels`
    problems.push({reason, ruleId: nestingRule, place: node.position})
  }
  return problems
}

/**
 * A from-markdown extension whose transform caps the tree (`capNesting`)
 * and records the problems for `reportKbProblems`. Put it first in the
 * extensions, so later transforms (the dialect's pairing, GFM's literal
 * autolinks) get a bounded tree, and last, since pairing tags nests them.
 */
export function nestingLimit(source?: string, leaf: NestingLeaf = 'html', max: number = maxNesting): Extension {
  return {transforms: [(tree: Root) => recordProblems(tree, capNesting(tree, {source, leaf, max}))]}
}

/** "Nesting deeper than 100 levels at line 3": the start of every message of the rule. */
function nestingReason(max: number, place: Position | undefined): string {
  return `Nesting deeper than ${max} levels` + (place ? ` at line ${place.start.line}` : '')
}

/** The leaf a capped subtree becomes: its source text, or (without positions) its text values. */
function leafOf(node: Nodes, source: string | undefined, leaf: NestingLeaf): Html | Text {
  const start = node.position?.start.offset
  const end = node.position?.end.offset
  const value =
    source !== undefined && start !== undefined && end !== undefined ? source.slice(start, end) : textOf([node])
  return {type: leaf, value, ...(node.position ? {position: node.position} : {})}
}
