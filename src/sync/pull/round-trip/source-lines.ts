/**
 * The lines of a document's file against the body push converts: which
 * lines of the file are the author's own text as the conversion read it,
 * and the rendered tree's positions moved to the file's lines. The body
 * keeps the file's lines (front matter and the title heading blanked), but
 * an include, a readfile or a snippet puts other text in place of one line,
 * and a site value fills text in: those lines are no text a patch may write.
 */
import type {Root} from 'mdast'

/** The file `text`'s lines (1-based) that are the author's own in the converted `body`. */
export interface OwnLines {
  /** Whether every line from `start` to `end` (1-based, inclusive) is own. */
  covers(start: number, end: number): boolean
  /** Where each line of the body comes from in the file (1-based), by 0-based body line. */
  fileLineOf(bodyLine: number): number
}

/**
 * The own lines of the file `text`, whose converted body is `body`, its
 * lines coming from the file's lines `lineOf` (absent: line for line). A
 * file line is own when exactly one body line comes from it and reads the
 * same: blanked front matter and title lines, expanded directives and
 * filled-in values all read otherwise.
 */
export function ownLinesOf(text: string, body: string, lineOf: readonly number[] | undefined): OwnLines {
  const fileLines = text.split('\n')
  const bodyLines = body.split('\n')
  const fileLineOf = (index: number) => lineOf?.[index] ?? index + 1
  const sources = new Array<number>(fileLines.length + 1).fill(0)
  const same = new Array<boolean>(fileLines.length + 1).fill(false)
  for (let index = 0; index < bodyLines.length; index++) {
    const line = fileLineOf(index)
    if (line < 1 || line > fileLines.length) continue
    sources[line]!++
    same[line] = bodyLines[index] === fileLines[line - 1]
  }
  const own = sources.map((count, line) => count === 1 && same[line]!)
  return {
    covers(start, end) {
      if (start < 1 || end > fileLines.length || start > end) return false
      for (let line = start; line <= end; line++) if (!own[line]) return false
      return true
    },
    fileLineOf: (bodyLine) => fileLineOf(bodyLine - 1)
  }
}

type Positioned = {
  position?: {start: Point; end: Point}
  children?: unknown[]
}
type Point = {line: number; column: number; offset?: number | undefined}

/**
 * Moves the positions of `tree` (lines of the body) to the lines of the file
 * `text`, and gives them offsets in `text`. Iterative: a deep tree cannot
 * overflow the stack.
 */
export function toFileLines(tree: Root, text: string, own: OwnLines): void {
  const starts = [0]
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) starts.push(index + 1)
  const move = (point: Point) => {
    point.line = own.fileLineOf(point.line)
    const start = starts[point.line - 1]
    if (start === undefined) delete point.offset
    else point.offset = Math.min(start + point.column - 1, text.length)
  }
  const stack: Positioned[] = [tree as Positioned]
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.position) {
      // A node the render rewrote shares its position object with nothing else; a kept one is the parse's own.
      node.position = {start: {...node.position.start}, end: {...node.position.end}}
      move(node.position.start)
      move(node.position.end)
    }
    if (Array.isArray(node.children)) for (const child of node.children) stack.push(child as Positioned)
  }
}

type Block = Root['children'][number]
type Walked = {position?: unknown; children?: Walked[]}

/**
 * Gives back the positions a conversion pass left off top-level blocks of
 * `tree` (the parse of `body`, the body of `file`): each run of blocks
 * without one, between blocks with one, is parsed again alone from its
 * lines, and takes the positions of that parse when it gives the same
 * blocks. A block that still has none is no text a patch may rewrite; a
 * wrong guess cannot pass, as the merge proves every patch by rendering.
 */
export function restorePositions(
  tree: Root,
  body: string,
  file: string,
  parse: (text: string, file: string) => Root,
  serialise: (tree: Root) => string
): void {
  const lines = body.split('\n')
  const children = tree.children
  for (let index = 0; index < children.length; index++) {
    if (children[index]!.position) continue
    let end = index
    while (end < children.length && !children[end]!.position) end++
    const first = index === 0 ? 1 : children[index - 1]!.position!.end.line + 1
    const last = end < children.length ? children[end]!.position!.start.line - 1 : lines.length
    const run = children.slice(index, end)
    index = end
    if (last < first) continue
    // The lines before the run blanked, so the parse counts lines as the body does.
    const text = [...lines.slice(0, first - 1).map(() => ''), ...lines.slice(first - 1, last)].join('\n')
    const parsed = parse(text, file).children
    if (parsed.length !== run.length) continue
    // Block by block: a reference whose definition lies outside the run reads otherwise alone, and keeps no position.
    run.forEach((block, at) => {
      if (serialise(rootOf(block)) === serialise(rootOf(parsed[at]!))) copyPositions(block, parsed[at]!)
    })
  }
}

function rootOf(block: Block): Root {
  return {type: 'root', children: [block]}
}

/** Copies the positions of `from` onto `to`, node by node, where both have the same shape (iterative). */
function copyPositions(to: Block, from: Block): void {
  const stack: Array<[Walked, Walked]> = [[to as Walked, from as Walked]]
  for (let pair = stack.pop(); pair; pair = stack.pop()) {
    const [target, source] = pair
    if (source.position) target.position = source.position
    const [a, b] = [target.children, source.children]
    if (Array.isArray(a) && Array.isArray(b) && a.length === b.length)
      a.forEach((child, at) => stack.push([child, b[at]!]))
  }
}
