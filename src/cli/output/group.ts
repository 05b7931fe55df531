/**
 * Diagnostics gathered by rule, for the grouped views (the terminal, the
 * step summary, the JSON counts): one group per rule and severity, in order
 * of first appearance, with its count, its files and its places.
 */
import type {Diagnostic} from '../../local/diagnostic.js'

// Grouping moved to local/ so the preview's problems panel sums up by the same rules without importing the CLI.
export {groupByRule, type RuleGroup} from '../../local/diagnostic-groups.js'

/** Where a diagnostic is, as `file:line` (`file` alone without a line, `''` for a run-wide one). */
export function placeOf(d: Diagnostic): string {
  if (d.file === undefined) return ''
  return d.line ? `${d.file}:${d.line}` : d.file
}

/** The distinct files `list` names. */
export function filesOf(list: readonly Diagnostic[]): Set<string> {
  const files = new Set<string>()
  for (const d of list) if (d.file !== undefined) files.add(d.file)
  return files
}

/**
 * `a.md:3, b.md:7, c.md:1 and 258 more in 44 files`: the first `shown`
 * distinct places of `items`, then how many are left and in how many files.
 */
export function placesText(items: readonly Diagnostic[], shown = 3): string {
  // Run-wide diagnostics have no place to show; they are counted by the caller.
  const placed = items.filter((d) => d.file !== undefined)
  const first = new Set<string>()
  for (const d of placed) {
    if (first.size === shown) break
    first.add(placeOf(d))
  }
  const rest = placed.filter((d) => !first.has(placeOf(d)))
  if (rest.length === 0) return [...first].join(', ')
  const restFiles = filesOf(rest).size
  return `${[...first].join(', ')} and ${rest.length} more in ${restFiles} ${restFiles === 1 ? 'file' : 'files'}`
}
