/**
 * The value of an MDX expression read from its syntax tree (the estree
 * acorn built), never by running it: kbsync runs no code from a
 * repository. Literals only: strings, numbers, booleans, `null`, template
 * literals without `${}`, and arrays and objects of those. Anything else
 * (a call, a variable, a getter, a spread) has no static value, except a
 * name the page imported an image or other media file as
 * (`import logo from './logo.png'`), which stands for the file's path.
 */
import type {Expression, Node, Program, Property, SpreadElement} from 'estree'

/** A value an expression can be read as. */
export type StaticValue = string | number | boolean | null | StaticValue[] | {[key: string]: StaticValue}

/** What an expression reads as: nothing (a comment, `{}`), a value, or no static value. */
export type Reading = {kind: 'empty'} | {kind: 'value'; value: StaticValue} | {kind: 'dynamic'}

/** Names bound to values by the page's imports (see `importedPaths`). */
export type Scope = ReadonlyMap<string, string>

const noScope: Scope = new Map()

/** Files whose import is their path (the bundler gives an image or media file's URL). */
const mediaFile = /\.(?:png|jpe?g|gif|svg|webp|avif|ico|bmp|mp4|webm|ogg|mp3)$/i

/** The default imports of media files in `program` (an ESM block of the page), by local name. */
export function importedPaths(program: Program | null | undefined, scope: Map<string, string>): void {
  for (const statement of program?.body ?? []) {
    if (statement.type !== 'ImportDeclaration' || typeof statement.source.value !== 'string') continue
    const path = statement.source.value
    if (!mediaFile.test(path)) continue
    for (const specifier of statement.specifiers)
      if (specifier.type === 'ImportDefaultSpecifier') scope.set(specifier.local.name, path)
  }
}

/** Literals nested deeper than this are not read (the reader recurses once per level). */
const maxDepth = 64

const dynamic: Reading = {kind: 'dynamic'}

/**
 * How the program of an MDX expression reads (`data.estree` of an
 * expression node or attribute value): empty when it holds only comments
 * or white space.
 */
export function readProgram(program: Program | null | undefined, scope: Scope = noScope): Reading {
  if (!program) return dynamic
  if (program.body.length === 0) return {kind: 'empty'}
  const [statement] = program.body
  if (program.body.length !== 1 || statement?.type !== 'ExpressionStatement') return dynamic
  const value =
    statement.expression.type === 'Identifier'
      ? scope.get(statement.expression.name)
      : readExpression(statement.expression, 0)
  return value === undefined ? dynamic : {kind: 'value', value}
}

/** The static value of `node`, or undefined. */
function readExpression(node: Node, depth: number): StaticValue | undefined {
  if (depth > maxDepth) return undefined
  switch (node.type) {
    case 'Literal':
      return 'regex' in node || 'bigint' in node ? undefined : (node.value as string | number | boolean | null)
    case 'TemplateLiteral':
      return node.expressions.length === 0 ? (node.quasis[0]?.value.cooked ?? undefined) : undefined
    case 'UnaryExpression': {
      // `-1` is a number written with a sign.
      const argument = node.operator === '-' ? readExpression(node.argument, depth + 1) : undefined
      return typeof argument === 'number' ? -argument : undefined
    }
    case 'ArrayExpression':
      return readArray(node.elements, depth)
    case 'ObjectExpression':
      return readObject(node.properties, depth)
    default:
      return undefined
  }
}

function readArray(
  elements: ReadonlyArray<Expression | SpreadElement | null>,
  depth: number
): StaticValue[] | undefined {
  const values: StaticValue[] = []
  for (const element of elements) {
    if (!element || element.type === 'SpreadElement') return undefined
    const value = readExpression(element, depth + 1)
    if (value === undefined) return undefined
    values.push(value)
  }
  return values
}

function readObject(
  properties: ReadonlyArray<Property | SpreadElement>,
  depth: number
): {[key: string]: StaticValue} | undefined {
  // No prototype: a key `__proto__` is data like any other.
  const object: {[key: string]: StaticValue} = Object.create(null) as {[key: string]: StaticValue}
  for (const property of properties) {
    // Getters, setters and methods are code; a spread names another value.
    if (property.type !== 'Property' || property.kind !== 'init' || property.method) return undefined
    const key = propertyKey(property)
    const value = key === undefined ? undefined : readExpression(property.value, depth + 1)
    if (key === undefined || value === undefined) return undefined
    object[key] = value
  }
  return object
}

/** The name of a property: an identifier or a string or number literal (a computed key only when a literal). */
function propertyKey(property: Property): string | undefined {
  const {key} = property
  if (key.type === 'Identifier' && !property.computed) return key.name
  if (key.type === 'Literal' && (typeof key.value === 'string' || typeof key.value === 'number'))
    return String(key.value)
  return undefined
}

/**
 * The text a value shows as in the page, as React renders it: strings and
 * numbers as written, arrays as their items' text, `true`, `false` and
 * `null` as nothing; undefined for an object (React cannot render one).
 */
export function renderedText(value: StaticValue): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number') return String(value)
  if (value === null || typeof value === 'boolean') return ''
  if (!Array.isArray(value)) return undefined
  let text = ''
  for (const item of value) {
    const part = Array.isArray(item) ? undefined : renderedText(item)
    if (part === undefined) return undefined
    text += part
  }
  return text
}
