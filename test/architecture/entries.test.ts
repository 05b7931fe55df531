/**
 * The package's entries load only what they use (issue 33): what each entry
 * loads when it is imported, following only runtime imports (`import()` runs
 * later, type-only imports are erased), reaches none of the heavy packages
 * that only some commands need. The optional dependencies are loaded with
 * `import()` alone, whatever the entry.
 */
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {runtimeGraph} from './import-graph.js'
import {importsOf, packageOf, repoRoot, sourceFiles} from './source-imports.js'

const shipped = sourceFiles(['src', 'plugins'])
const graph = runtimeGraph(shipped)
const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  optionalDependencies?: Record<string, string>
}
const optional = Object.keys(manifest.optionalDependencies ?? {})
/** Packages no entry may load at import time: the browser and its renderers, the highlighter, HTTP, the watcher, uploads. */
const heavy = ['playwright-core', 'mermaid', 'shiki', 'undici', 'chokidar', '@fastify/busboy', 'jsdom', 'mathjax-full']

/** Each package `entry` loads at import time, with the first file (and line) that imports it. */
function loadedPackages(entry: string): Map<string, string> {
  const found = new Map<string, string>()
  const seen = new Set([entry])
  const queue = [entry]
  while (queue.length > 0) {
    const file = queue.shift()!
    for (const item of importsOf(file)) {
      const name = packageOf(item.specifier)
      if (name !== undefined && !item.typeOnly && !item.dynamic && !found.has(name))
        found.set(name, `${file}:${item.line}`)
    }
    for (const next of graph.get(file) ?? []) {
      if (!seen.has(next)) {
        seen.add(next)
        queue.push(next)
      }
    }
  }
  return found
}

const entries: Record<string, string[]> = {
  'kbsync/dialect (src/dialect/index.ts)': heavy,
  'kbsync/plugins (plugins/index.ts)': heavy,
  'kbsync (src/index.ts)': heavy,
  // bin.ts listens for signals, then loads main.ts with import(), which loads the command run with import():
  // every command's imports start at commands/index.ts, which imports them all.
  'the CLI commands (src/cli/commands/index.ts)': optional,
  'the CLI command runner (src/cli/run-command.ts)': optional
}

describe('what each entry loads when imported', () => {
  it('the optional dependencies are the renderers (Mermaid in Chromium, MathJax) and the highlighter', () => {
    expect(optional.sort()).toEqual(['mathjax-full', 'mermaid', 'playwright-core', 'shiki'])
  })

  for (const [name, refused] of Object.entries(entries)) {
    it(`${name} loads none of ${refused.join(', ')}`, () => {
      const file = /\(([^)]+)\)/.exec(name)![1]!
      const loaded = loadedPackages(file)
      expect(loaded.size).toBeGreaterThan(0)
      expect(refused.filter((pkg) => loaded.has(pkg)).map((pkg) => `${pkg} (imported at ${loaded.get(pkg)})`)).toEqual(
        []
      )
    })
  }

  it('kbsync --version and --help (src/cli/main.ts) load no package and no command', () => {
    const seen = new Set(['src/cli/main.ts'])
    const queue = ['src/cli/main.ts']
    while (queue.length > 0)
      for (const next of graph.get(queue.shift()!) ?? [])
        if (!seen.has(next)) {
          seen.add(next)
          queue.push(next)
        }
    expect(
      [...seen]
        .flatMap((file) => importsOf(file).filter((item) => !item.typeOnly && !item.dynamic))
        .map((item) => packageOf(item.specifier))
        .filter((name) => name !== undefined)
    ).toEqual([])
    expect([...seen].filter((file) => file.startsWith('src/cli/commands/') && !file.endsWith('/catalog.ts'))).toEqual(
      []
    )
  })

  it('kbsync/dialect loads no engine: nothing of sync, api, local, server, preview, diagrams, cli', () => {
    const engine = /^src\/(sync|api|local|server|preview|diagrams|cli|links)\//
    const seen = new Set(['src/dialect/index.ts'])
    const queue = ['src/dialect/index.ts']
    while (queue.length > 0)
      for (const next of graph.get(queue.shift()!) ?? [])
        if (!seen.has(next)) {
          seen.add(next)
          queue.push(next)
        }
    expect([...seen].filter((file) => engine.test(file))).toEqual([])
  })
})
