/**
 * Diagnostics gathered by rule, for the grouped views (the terminal, the
 * step summary, the JSON counts): one group per rule and severity, in order
 * of first appearance, with its count, its files and its places.
 */
import type {Diagnostic, Severity} from '../../local/diagnostic.js'

/** The diagnostics of one rule and severity. */
export interface RuleGroup {
  /** The rule, or `''` for diagnostics that name none. */
  rule: string
  severity: Severity
  /** The diagnostics of the group, in the order they came. */
  items: Diagnostic[]
  /** The distinct files they name, in order of first appearance. */
  files: string[]
}

/** Groups `list` by rule and severity, groups and items in order of first appearance. */
export function groupByRule(list: readonly Diagnostic[]): RuleGroup[] {
  const groups = new Map<string, RuleGroup & {seen: Set<string>}>()
  for (const d of list) {
    const rule = d.rule ?? ''
    const key = `${d.severity}\0${rule}`
    let group = groups.get(key)
    if (!group) {
      group = {rule, severity: d.severity, items: [], files: [], seen: new Set()}
      groups.set(key, group)
    }
    group.items.push(d)
    if (d.file !== undefined && !group.seen.has(d.file)) {
      group.seen.add(d.file)
      group.files.push(d.file)
    }
  }
  return [...groups.values()].map(({seen: _seen, ...group}) => group)
}

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
