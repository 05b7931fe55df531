/**
 * The one reader of JavaScript and TypeScript a repository holds (a
 * Docusaurus `sidebars.js`, an `astro.config.mjs`, an MDX expression): such
 * a file is data, never a program. It is parsed with `@babel/parser` and
 * only its literal structure is taken: strings, numbers, booleans, `null`,
 * template strings without expressions, object and array literals (with
 * spreads of literals), `as` / `satisfies` / `!` type wrappers, and names of
 * top-level `const` bindings. A call is kept as a `CallValue` (its callee's
 * name and its arguments, read the same way) for the caller to recognise
 * (`defineConfig({...})`, `starlight({...})`); anything else is an
 * `Opaque` value with its line, for the caller to skip with a warning.
 * Nothing is ever run, imported or required.
 *
 * Bounded: a text over `maxScriptLength`, or nested deeper than
 * `maxScriptNesting` brackets (the parser and this reader descend by
 * recursion), is refused before it is parsed.
 */
import {parse} from '@babel/parser'
import {maxScriptNesting, overScriptBudget} from './script-budget.js'

/** A value written as something other than a literal (a variable from an import, a function, an operation). */
export class Opaque {
  constructor(
    /** 1-based line where it is written. */
    readonly line: number,
    /** What it is, for messages (`a call of require`, `an identifier`). */
    readonly what: string
  ) {}
}

/** A call: its callee's dotted name (`defineConfig`, `fontProviders.fontsource`) and its arguments, read as values. */
export class CallValue {
  constructor(
    readonly callee: string,
    readonly args: readonly unknown[],
    readonly line: number
  ) {}
}

/** A script read: its exported value (`export default`, `module.exports =`), or why it could not be read. */
export type ScriptRead =
  {ok: true; value: unknown; lineOf(value: unknown): number | undefined} | {ok: false; line: number; message: string}

/** A node of either tree shape this reader accepts (Babel's or ESTree's, as MDX's expressions give). */
interface AnyNode {
  type: string
  loc?: {start: {line: number}} | null
  [key: string]: unknown
}

/**
 * Reads the default export of the script `text` (`export default X`,
 * `module.exports = X`, `export = X`), resolving top-level `const` names. Never throws.
 */
export function readScriptExport(text: string, typescript: boolean): ScriptRead {
  const refused = overScriptBudget(text)
  if (refused) return {ok: false, ...refused}
  let program: AnyNode
  try {
    const file = parse(text, {
      sourceType: 'unambiguous',
      plugins: typescript ? ['typescript', 'jsx'] : ['jsx'],
      errorRecovery: false
    })
    program = asNode(file.program)
  } catch (error) {
    const loc = (error as {loc?: {line?: number}}).loc
    return {ok: false, line: loc?.line ?? 1, message: (error as Error).message.replace(/\s*\(\d+:\d+\)$/, '')}
  }
  const bindings = new Map<string, AnyNode>()
  let exported: AnyNode | undefined
  for (const statement of program.body as AnyNode[]) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? (statement.declaration as AnyNode) : statement
    if (declaration?.type === 'VariableDeclaration')
      for (const declarator of declaration.declarations as AnyNode[]) {
        const id = declarator.id as AnyNode
        if (id.type === 'Identifier' && declarator.init) bindings.set(id.name as string, declarator.init as AnyNode)
      }
    if (statement.type === 'ExportDefaultDeclaration') exported = statement.declaration as AnyNode
    if (statement.type === 'TSExportAssignment') exported = statement.expression as AnyNode
    if (statement.type === 'ExpressionStatement') {
      const expression = statement.expression as AnyNode
      if (expression.type === 'AssignmentExpression' && isModuleExports(expression.left as AnyNode))
        exported = expression.right as AnyNode
    }
  }
  const reader = new LiteralReader(bindings)
  if (!exported) return {ok: false, line: 1, message: 'it exports no value (`export default` or `module.exports =`)'}
  const value = reader.read(exported, 0)
  return {ok: true, value, lineOf: (of) => (typeof of === 'object' && of ? reader.lines.get(of) : undefined)}
}

/**
 * The literal value of one expression node (Babel or ESTree shape, such as
 * an MDX attribute's expression): non-literal parts become `Opaque` or
 * `CallValue`; `lineOf` gives the line of each object and array made.
 */
export function literalValue(node: unknown): {value: unknown; lineOf(value: unknown): number | undefined} {
  const reader = new LiteralReader(new Map())
  const value = reader.read(asNode(node), 0)
  return {value, lineOf: (of) => (typeof of === 'object' && of ? reader.lines.get(of) : undefined)}
}

/** A parsed node, seen through the shape both parsers share. */
function asNode(value: unknown): AnyNode {
  return value as AnyNode
}

function isModuleExports(node: AnyNode): boolean {
  if (node.type !== 'MemberExpression') return false
  const object = node.object as AnyNode
  const property = node.property as AnyNode
  return object.type === 'Identifier' && object.name === 'module' && keyName(property, false) === 'exports'
}

function lineOfNode(node: AnyNode): number {
  return node.loc?.start.line ?? 1
}

/** A property key's name: an identifier (unless computed), a string or a number. */
function keyName(node: AnyNode, computed: boolean): string | undefined {
  if (node.type === 'Identifier' && !computed) return node.name as string
  if (node.type === 'StringLiteral' || node.type === 'NumericLiteral') return String(node.value)
  if (node.type === 'Literal' && (typeof node.value === 'string' || typeof node.value === 'number'))
    return String(node.value)
  return undefined
}

/** The dotted name of a callee (`a.b.c`), or undefined when it is not one. */
function calleeName(node: AnyNode): string | undefined {
  if (node.type === 'Identifier') return node.name as string
  if (node.type === 'MemberExpression' && !node.computed) {
    const object = calleeName(node.object as AnyNode)
    const property = keyName(node.property as AnyNode, false)
    return object !== undefined && property !== undefined ? `${object}.${property}` : undefined
  }
  return undefined
}

/** Reads expressions as values, resolving top-level `const` names (each once at a time: a cycle is opaque). */
class LiteralReader {
  readonly lines = new WeakMap<object, number>()
  private readonly resolving = new Set<string>()

  constructor(private readonly bindings: ReadonlyMap<string, AnyNode>) {}

  read(node: AnyNode, depth: number): unknown {
    // The budget holds real depth; this guards an ESTree handed in by another parser.
    if (depth > maxScriptNesting) return new Opaque(lineOfNode(node), 'an expression nested too deep')
    switch (node.type) {
      case 'StringLiteral':
      case 'NumericLiteral':
      case 'BooleanLiteral':
        return node.value
      case 'NullLiteral':
        return null
      case 'Literal':
        return node.value === null || ['string', 'number', 'boolean'].includes(typeof node.value)
          ? node.value
          : new Opaque(lineOfNode(node), 'a regular expression or big number')
      case 'TemplateLiteral':
        return (node.expressions as AnyNode[]).length === 0
          ? (node.quasis as Array<{value: {cooked?: string | null; raw: string}}>)
              .map((quasi) => quasi.value.cooked ?? quasi.value.raw)
              .join('')
          : new Opaque(lineOfNode(node), 'a template string with expressions')
      case 'UnaryExpression':
        return this.unary(node, depth)
      case 'TSAsExpression':
      case 'TSSatisfiesExpression':
      case 'TSNonNullExpression':
      case 'TSTypeAssertion':
      case 'TypeCastExpression':
      case 'ParenthesizedExpression':
        return this.read(node.expression as AnyNode, depth + 1)
      case 'ArrayExpression':
        return this.array(node, depth)
      case 'ObjectExpression':
        return this.object(node, depth)
      case 'Identifier':
        return this.identifier(node, depth)
      case 'CallExpression':
        return this.call(node, depth)
      default:
        return new Opaque(lineOfNode(node), describe(node))
    }
  }

  private unary(node: AnyNode, depth: number): unknown {
    const argument = this.read(node.argument as AnyNode, depth + 1)
    if (typeof argument === 'number' && (node.operator === '-' || node.operator === '+'))
      return node.operator === '-' ? -argument : argument
    return new Opaque(lineOfNode(node), `an expression with \`${String(node.operator)}\``)
  }

  private identifier(node: AnyNode, depth: number): unknown {
    const name = node.name as string
    if (name === 'undefined') return undefined
    const bound = this.bindings.get(name)
    if (!bound || this.resolving.has(name)) return new Opaque(lineOfNode(node), `the name \`${name}\``)
    this.resolving.add(name)
    try {
      return this.read(bound, depth + 1)
    } finally {
      this.resolving.delete(name)
    }
  }

  private call(node: AnyNode, depth: number): unknown {
    const callee = calleeName(node.callee as AnyNode)
    if (callee === undefined) return new Opaque(lineOfNode(node), 'a call')
    const args = (node.arguments as AnyNode[]).map((argument) =>
      argument.type === 'SpreadElement' ? new Opaque(lineOfNode(argument), 'a spread') : this.read(argument, depth + 1)
    )
    return new CallValue(callee, args, lineOfNode(node))
  }

  private array(node: AnyNode, depth: number): unknown[] {
    const values: unknown[] = []
    for (const element of node.elements as Array<AnyNode | null>) {
      if (element === null) continue
      if (element.type !== 'SpreadElement') {
        values.push(this.read(element, depth + 1))
        continue
      }
      const spread = this.read(element.argument as AnyNode, depth + 1)
      if (Array.isArray(spread)) values.push(...spread)
      else
        values.push(
          spread instanceof Opaque
            ? spread
            : new Opaque(
                lineOfNode(element),
                spread instanceof CallValue ? `a call of \`${spread.callee}\`` : 'no list'
              )
        )
    }
    this.mark(values, node)
    return values
  }

  private object(node: AnyNode, depth: number): Record<string, unknown> {
    const values: Record<string, unknown> = Object.create(null) as Record<string, unknown>
    for (const property of node.properties as AnyNode[]) {
      if (property.type === 'SpreadElement') {
        const spread = this.read(property.argument as AnyNode, depth + 1)
        // Spreading what is not read leaves the keys written here: the caller reads those.
        if (isPlainObject(spread)) Object.assign(values, spread)
        continue
      }
      if (property.type !== 'ObjectProperty' && !(property.type === 'Property' && property.kind === 'init')) continue
      const key = keyName(property.key as AnyNode, Boolean(property.computed))
      if (key === undefined || key === '__proto__') continue
      values[key] = this.read(property.value as AnyNode, depth + 1)
    }
    this.mark(values, node)
    return values
  }

  private mark(value: object, node: AnyNode): void {
    this.lines.set(value, lineOfNode(node))
  }
}

/** Whether `value` is an object read from a literal (not an array, call or opaque value). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === null
}

function describe(node: AnyNode): string {
  switch (node.type) {
    case 'ArrowFunctionExpression':
    case 'FunctionExpression':
      return 'a function'
    case 'MemberExpression':
      return 'a property of a variable'
    case 'AwaitExpression':
      return 'an `await`'
    default:
      return `an expression (${node.type})`
  }
}
