/**
 * The runtime import graph of the shipped sources and its cycles. Only
 * imports that load a file when the importer loads count: type-only imports
 * are erased by the compiler and `import()` runs later, so neither can leave
 * a module half-initialised.
 */
import {importsOf, resolveRelative} from './source-imports.js'

/** File -> the files it loads at run time (paths relative to the repository root). */
export type ImportGraph = Map<string, string[]>

/** The runtime import graph of the given source files (edges to files outside the list are left out). */
export function runtimeGraph(files: readonly string[]): ImportGraph {
  const known = new Set(files)
  const graph: ImportGraph = new Map()
  for (const file of files) {
    const targets = importsOf(file)
      .filter((entry) => !entry.typeOnly && !entry.dynamic)
      .map((entry) => resolveRelative(file, entry.specifier, known))
      .filter((target): target is string => target !== undefined)
    graph.set(file, [...new Set(targets)])
  }
  return graph
}

/** The strongly connected components of the graph with more than one file, or one file importing itself (Tarjan). */
function tangledComponents(graph: ImportGraph): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const components: string[][] = []
  const connect = (file: string): void => {
    index.set(file, index.size)
    low.set(file, index.get(file)!)
    stack.push(file)
    onStack.add(file)
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next)
        low.set(file, Math.min(low.get(file)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!))
    }
    if (low.get(file) !== index.get(file)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== file)
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) components.push(component.sort())
  }
  for (const file of graph.keys()) if (!index.has(file)) connect(file)
  return components
}

/** One concrete cycle inside a component, as `a -> b -> a`: the shortest way back to its first file (breadth first). */
function cycleThrough(component: string[], graph: ImportGraph): string[] {
  const inside = new Set(component)
  const start = component[0]!
  const previous = new Map<string, string>()
  const queue = [start]
  while (queue.length > 0) {
    const file = queue.shift()!
    for (const next of graph.get(file) ?? []) {
      if (!inside.has(next)) continue
      if (next === start) {
        const path = [file]
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!)
        return [...path, start]
      }
      if (!previous.has(next)) {
        previous.set(next, file)
        queue.push(next)
      }
    }
  }
  return [start, start]
}

/** Every import cycle of the graph: one named cycle per tangle, with the number of files the tangle holds. */
export function importCycles(graph: ImportGraph): Array<{cycle: string[]; files: number}> {
  return tangledComponents(graph).map((component) => ({cycle: cycleThrough(component, graph), files: component.length}))
}
