import {readFileSync} from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {importsOf, packageOf, repoRoot, sourceFiles} from './source-imports.js'

/**
 * `dependencies` are what an installed kbsync needs: exactly the packages the
 * shipped code (src/ and plugins/) imports. Type-only imports count: the
 * published declarations (`dist/**\/*.d.ts`) import `mdast`, `hast` and
 * `unist`, whose types come from `@types/mdast`, `@types/hast` and
 * `@types/unist`, so a user's compiler needs those installed. Everything
 * tests, benchmarks and tools use is a devDependency.
 */
const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
}
// Optional dependencies (mermaid, playwright-core, shiki) are installed by default too; test/architecture/entries.test.ts
// checks that they are loaded only with `import()`.
const dependencies = Object.keys({...manifest.dependencies, ...manifest.optionalDependencies}).sort()

function importedPackages(): Map<string, string> {
  const found = new Map<string, string>()
  for (const file of sourceFiles(['src', 'plugins'])) {
    for (const entry of importsOf(file)) {
      const name = packageOf(entry.specifier)
      if (name !== undefined && !found.has(name)) found.set(name, `${file}:${entry.line}`)
    }
  }
  return found
}

/** The package name a dependency entry provides to imports: `@types/mdast` provides `mdast`, `@types/a__b` provides `@a/b`. */
function providedName(dependency: string): string {
  if (!dependency.startsWith('@types/')) return dependency
  const name = dependency.slice('@types/'.length)
  return name.includes('__') ? `@${name.replace('__', '/')}` : name
}

describe('dependencies are what the shipped code imports', () => {
  const imported = importedPackages()

  it('every imported package is a dependency (or its @types package, for a types-only one)', () => {
    const provided = new Set(dependencies.map(providedName))
    const missing = [...imported]
      .filter(([name]) => !provided.has(name))
      .map(([name, where]) => `${name} (imported at ${where})`)
    expect(missing).toEqual([])
  })

  it('every dependency is imported by the shipped code', () => {
    const unused = dependencies.filter((dependency) => !imported.has(providedName(dependency)))
    expect(unused, 'move these to devDependencies if tests or tools use them, else remove them').toEqual([])
  })

  it('reads @types names as the package names they provide', () => {
    expect(providedName('@types/mdast')).toBe('mdast')
    expect(providedName('@types/babel__core')).toBe('@babel/core')
    expect(providedName('unified')).toBe('unified')
  })
})
