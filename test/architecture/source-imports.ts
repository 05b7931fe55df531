/**
 * The import specifiers of the shipped TypeScript sources (src/ and plugins/),
 * read with the TypeScript parser, each marked whether it matters at run time.
 * The architecture tests build the import graph and the dependency list from it.
 */
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

/** One import or re-export of a source file. */
export interface SourceImport {
  /** The module specifier as written: `./x.js`, `unified`, `node:fs`. */
  specifier: string
  /** Erased when compiled: `import type`, `export type`, or every named specifier marked `type`. */
  typeOnly: boolean
  /** `import('x')` in an expression: loaded when it runs, not when the file loads. */
  dynamic: boolean
  /** 1-based line of the import, for messages. */
  line: number
}

/** The repository root (absolute). */
export const repoRoot = path.resolve(import.meta.dirname, '../..')

/** Every `.ts` file under the given folders of the repository, as paths relative to the root (`/` separators). */
export function sourceFiles(folders: readonly string[]): string[] {
  const found: string[] = []
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(repoRoot, relative), {withFileTypes: true})) {
      const child = `${relative}/${entry.name}`
      if (entry.isDirectory()) walk(child)
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(child)
    }
  }
  for (const folder of folders) walk(folder)
  return found.sort()
}

/** Whether every named binding is marked `type` (an import with no runtime binding is erased). */
function onlyTypes(elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>): boolean {
  return elements.length > 0 && elements.every((element) => element.isTypeOnly)
}

function importClauseIsTypeOnly(clause: ts.ImportClause | undefined): boolean {
  if (clause === undefined) return false // `import './x.js'`: run for its effects
  if (clause.isTypeOnly) return true
  if (clause.name !== undefined) return false
  const bindings = clause.namedBindings
  return bindings !== undefined && ts.isNamedImports(bindings) && onlyTypes(bindings.elements)
}

function exportIsTypeOnly(declaration: ts.ExportDeclaration): boolean {
  if (declaration.isTypeOnly) return true
  const clause = declaration.exportClause
  return clause !== undefined && ts.isNamedExports(clause) && onlyTypes(clause.elements)
}

/** `require.resolve` or `createRequire(...).resolve`: a package's file located at run time (a script a browser page loads). */
function isRequireResolve(callee: ts.Expression): boolean {
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'resolve') return false
  const target = callee.expression
  if (ts.isIdentifier(target)) return target.text === 'require'
  return ts.isCallExpression(target) && ts.isIdentifier(target.expression) && target.expression.text === 'createRequire'
}

/** The imports of a TypeScript source text: static imports, re-exports, `import()` and `require.resolve()` calls, `import('x').T` types. */
export function importsOfText(fileName: string, text: string): SourceImport[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true)
  const found: SourceImport[] = []
  const add = (literal: ts.Expression, typeOnly: boolean, dynamic: boolean): void => {
    if (!ts.isStringLiteral(literal)) return
    const line = source.getLineAndCharacterOfPosition(literal.getStart()).line + 1
    found.push({specifier: literal.text, typeOnly, dynamic, line})
  }
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, importClauseIsTypeOnly(node.importClause), false)
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier)
      add(node.moduleSpecifier, exportIsTypeOnly(node), false)
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, true, false)
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || isRequireResolve(node.expression)) &&
      node.arguments[0]
    ) {
      add(node.arguments[0], false, true)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** The imports of one source file (path relative to the repository root). */
export function importsOf(file: string): SourceImport[] {
  return importsOfText(file, readFileSync(path.join(repoRoot, file), 'utf8'))
}

/**
 * The source file a relative specifier names (`./x.js` -> `dir/x.ts`, `./x` ->
 * `dir/x/index.ts`), or undefined for a package or a file that is not a listed source.
 */
export function resolveRelative(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier))
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}/index.ts`]
  return candidates.find((candidate) => known.has(candidate))
}

/** The package a bare specifier names: `unified` -> `unified`, `@fastify/busboy/x` -> `@fastify/busboy`; undefined for relative and `node:` ones. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}
