/** Test helpers of the dialect suite. */
import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

/** A deep copy of a tree without `position` fields. */
export function stripPositions<T>(tree: T): T {
  return JSON.parse(JSON.stringify(tree, (key, value) => (key === 'position' ? undefined : value))) as T
}

/** The fixture cases under `fixtures/dialect`. */
export const fixturesRoot = join(import.meta.dirname, '..', '..', 'fixtures', 'dialect')

/** Names of the fixture cases. */
export function fixtureCases(): string[] {
  return readdirSync(fixturesRoot, {withFileTypes: true})
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
}

/** The platform bodies that must round-trip. */
export const platformBodiesRoot = join(import.meta.dirname, '..', '..', 'fixtures', 'platform-bodies')

/** Platform bodies as [name, text]. */
export function platformBodies(): Array<[string, string]> {
  let names: string[]
  try {
    names = readdirSync(platformBodiesRoot).filter((name) => name.endsWith('.md'))
  } catch {
    return []
  }
  return names.sort().map((name) => [name, readFileSync(join(platformBodiesRoot, name), 'utf8')])
}
