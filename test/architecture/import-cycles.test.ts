import {describe, expect, it} from 'vitest'
import {importCycles, runtimeGraph, type ImportGraph} from './import-graph.js'
import {importsOf, importsOfText, resolveRelative, sourceFiles} from './source-imports.js'

const shipped = sourceFiles(['src', 'plugins'])

function describeCycles(graph: ImportGraph): string[] {
  return importCycles(graph).map(({cycle, files}) => `${cycle.join(' -> ')} (a tangle of ${files} files)`)
}

describe('reading imports', () => {
  it('tells runtime imports from type-only and lazy ones', () => {
    const text = [
      "import type {A} from './a.js'",
      "import {type B, type C} from './b.js'",
      "import {type D, e} from './c.js'",
      "import f from './d.js'",
      "import './e.js'",
      "export type {G} from './f.js'",
      "export * from './g.js'",
      'type H = import("./h.js").H',
      "const i = () => import('./i.js')",
      "const j = createRequire(import.meta.url).resolve('pkg/dist/j.js')"
    ].join('\n')
    const found = importsOfText('x.ts', text).map(
      ({specifier, typeOnly, dynamic}) => `${specifier} ${typeOnly ? 'type' : dynamic ? 'lazy' : 'runtime'}`
    )
    expect(found).toEqual([
      './a.js type',
      './b.js type',
      './c.js runtime',
      './d.js runtime',
      './e.js runtime',
      './f.js type',
      './g.js runtime',
      './h.js type',
      './i.js lazy',
      'pkg/dist/j.js lazy'
    ])
  })

  it('resolves a relative specifier to the source file it names', () => {
    const known = new Set(['src/a/x.ts', 'src/a/y/index.ts'])
    expect(resolveRelative('src/a/b.ts', './x.js', known)).toBe('src/a/x.ts')
    expect(resolveRelative('src/a/z/b.ts', '../y/index.js', known)).toBe('src/a/y/index.ts')
    expect(resolveRelative('src/a/b.ts', './y', known)).toBe('src/a/y/index.ts')
    expect(resolveRelative('src/a/b.ts', 'unified', known)).toBeUndefined()
  })
})

describe('import cycles', () => {
  it('names a cycle, and only a cycle', () => {
    const graph: ImportGraph = new Map([
      ['main.ts', ['commands.ts', 'errors.ts']],
      ['commands.ts', ['init.ts']],
      ['init.ts', ['main.ts', 'errors.ts']],
      ['errors.ts', []],
      ['self.ts', ['self.ts']]
    ])
    expect(describeCycles(graph)).toEqual([
      'commands.ts -> init.ts -> main.ts -> commands.ts (a tangle of 3 files)',
      'self.ts -> self.ts (a tangle of 1 files)'
    ])
    graph.set('init.ts', ['errors.ts'])
    graph.set('self.ts', [])
    expect(describeCycles(graph)).toEqual([])
  })

  it('no runtime import cycle between the files of src/ and plugins/', () => {
    expect(shipped.length).toBeGreaterThan(100)
    expect(describeCycles(runtimeGraph(shipped))).toEqual([])
  })
})

describe('push and pull are siblings', () => {
  const rules: Array<{from: string; mayNotImport: string[]}> = [
    {from: 'src/sync/push/', mayNotImport: ['src/sync/pull/']},
    {from: 'src/sync/pull/', mayNotImport: ['src/sync/push/']},
    {from: 'src/sync/shared/', mayNotImport: ['src/sync/push/', 'src/sync/pull/']}
  ]
  const known = new Set(shipped)

  for (const {from, mayNotImport} of rules) {
    it(`${from} imports nothing from ${mayNotImport.join(' or ')} (types included)`, () => {
      const crossings: string[] = []
      for (const file of shipped.filter((name) => name.startsWith(from))) {
        for (const entry of importsOf(file)) {
          const target = resolveRelative(file, entry.specifier, known)
          if (target && mayNotImport.some((folder) => target.startsWith(folder)))
            crossings.push(`${file}:${entry.line} imports ${target}`)
        }
      }
      expect(shipped.some((name) => name.startsWith(from))).toBe(true)
      expect(crossings).toEqual([])
    })
  }
})
