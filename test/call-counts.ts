/** Counting the calls of a module's function in a test's `vi.mock` factory (imported there: the factory is hoisted). */

/** `run`, each call counted in `counts[name]`. */
export function counting<A extends unknown[], R>(
  counts: Record<string, number>,
  name: string,
  run: (...args: A) => R
): (...args: A) => R {
  return (...args) => {
    counts[name] = (counts[name] ?? 0) + 1
    return run(...args)
  }
}
