/**
 * The seam between the folder side and the dialect toolchain: GFM source to
 * a dialect tree (with the conversion's warnings), a dialect tree to the
 * canonical body text, and a dialect body back to GFM for people to read
 * (conflict files).
 */
import type {Root} from 'mdast'
import {gfmToKbTree, kbToGfm, stringifyKb} from '../dialect/index.js'
import {markLocalRefs, type Resolved} from './references.js'
import type {LocalNode} from './types.js'

/** A warning or error of the conversion, with its position. */
export interface ConversionMessage {
  message: string
  line?: number | undefined
  column?: number | undefined
  fatal?: boolean | null | undefined
  ruleId?: string | undefined
}

/** Converts GFM source (of the file `file`) to a dialect tree. */
export function toKbTree(markdown: string, file: string): {tree: Root; messages: ConversionMessage[]} {
  const {tree, messages} = gfmToKbTree(markdown, {path: file})
  return {
    tree,
    messages: messages.map((m) => ({
      message: m.reason,
      line: m.line,
      column: m.column,
      fatal: m.fatal,
      ruleId: m.ruleId
    }))
  }
}

/** Serialises a dialect tree to the canonical body. */
export function toKbText(tree: Root): string {
  return stringifyKb(tree)
}

/** Converts a dialect body to GitHub-flavoured Markdown for a person to read (conflict files). */
export function toGfmText(markdown: string): string {
  return kbToGfm(markdown).markdown
}

/**
 * The dialect tree of a document's body, links and files marked as the scan
 * resolved them; parsed on first use when the scan read the body from the
 * cache (and kept on the node afterwards). Undefined when there is no body.
 */
export function bodyTree(node: LocalNode): Root | undefined {
  if (node.tree || node.body === undefined) return node.tree
  const tree = parsedBodyTree(node)
  dropPositions(tree)
  node.tree = tree
  return tree
}

/**
 * The dialect tree of a document's body as `bodyTree` makes it, but freshly
 * parsed and with its source positions (lines of the body, which are the
 * file's lines unless an include moved them): pull's round trip maps blocks
 * back to the file. Not kept on the node. Undefined when there is no body.
 */
export function positionedBodyTree(node: LocalNode): Root | undefined {
  return node.body === undefined ? undefined : parsedBodyTree(node)
}

let treeParses = 0

/** How many bodies `bodyTree` and `positionedBodyTree` parsed in this process (no tree kept on the node): tests watch it. */
export function bodyTreeParses(): number {
  return treeParses
}

/** Parses the body of `node` (which has one) and marks its references as the scan resolved them. */
function parsedBodyTree(node: LocalNode): Root {
  treeParses++
  return parseMarkedBody(node.body!, node.file ?? node.path, node.resolutions)
}

/**
 * The dialect tree of the body `body` of `file`, its references marked with
 * `resolutions` (as the scan resolved them, in document order). Throws for
 * a body with an error (it never renders) or whose references are not the
 * ones the scan read. Pure: the conversion pool runs it too.
 */
export function parseMarkedBody(
  body: string,
  file: string,
  resolutions: ReadonlyArray<Resolved | null> | undefined
): Root {
  const {tree, messages} = toKbTree(body, file)
  // A body with an error never renders (the parse capped what it could not keep). The plan stops on the errors the
  // scan reports; this one it read from the body cache or from a pattern (`plain-body.ts`), and they missed it.
  const error = messages.find((message) => message.fatal)
  if (error) throw new Error(`${file}${error.line ? `:${error.line}` : ''}: ${error.message}`)
  const marked = markLocalRefs(tree, resolutions ?? [])
  // The scan read the references from the body cache or from a pattern (`plain-body.ts`), not from this parse:
  // should the two ever disagree, marking by position would point links at the wrong documents.
  if (resolutions && marked !== resolutions.length) {
    throw new Error(
      `${file}: the body holds ${marked} local references, but the scan read ${resolutions.length}; please report this with the file`
    )
  }
  return tree
}

/**
 * Removes the source positions of a tree kept for rendering: its messages
 * and references already carry their lines, serialising never reads them,
 * and they are most of a small tree's objects (memory, and the clone that
 * each render makes). Returns the tree's count of nodes: what keeping it
 * costs (`tree-weight.ts`), whatever the size of its text.
 */
export function dropPositions(tree: Root): number {
  const stack: Array<{position?: unknown; children?: unknown[]}> = [tree]
  let nodes = 0
  for (let node = stack.pop(); node; node = stack.pop()) {
    nodes++
    delete node.position
    if (Array.isArray(node.children)) for (const child of node.children) stack.push(child as (typeof stack)[number])
  }
  return nodes
}
