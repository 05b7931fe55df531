/**
 * The warning section of a run's output: every warning one line each when
 * they fit, else grouped by rule (a count, the rule's message once, the first
 * places, then how many more in how many files). By default the section never
 * takes more lines than `maxLines` (one screen), nor more lines than there
 * are files with warnings, whatever the tree; `verbose` lists them all.
 */
import type {Diagnostic} from '../../local/diagnostic.js'
import {palette, type Palette} from './colours.js'
import {formatDiagnostic, severityWord} from './format.js'
import {filesOf, groupByRule, placesText, type RuleGroup} from './group.js'
import {plural} from './lines.js'

/** Options of `warningLines`. */
export interface WarningLinesOptions {
  /** Every warning one line each, whatever their number. */
  verbose?: boolean
  /** Most lines of the section (default 20). */
  maxLines?: number
  /** Places shown per rule (default 3). */
  places?: number
  colours?: Palette
}

/** Rules named in the one line that stands for the groups left out. */
const namedInRest = 8

/** The lines of the warning section for `warnings` (all of severity `warning`). */
export function warningLines(warnings: readonly Diagnostic[], options: WarningLinesOptions = {}): string[] {
  const colours = options.colours ?? palette(false)
  if (warnings.length === 0) return []
  if (options.verbose) return warnings.map((d) => formatDiagnostic(d, colours))
  const files = filesOf(warnings).size
  // A file with warnings is a document (or a file beside one): never more lines than those.
  const budget = Math.max(1, Math.min(options.maxLines ?? 20, files))
  if (warnings.length <= budget) return warnings.map((d) => formatDiagnostic(d, colours))
  const groups = groupByRule(warnings)
  const header = `${plural(warnings.length, 'warning')}${files > 0 ? ` in ${plural(files, 'file')}` : ''}, by rule (--verbose lists each):`
  if (budget < 3) {
    // With room for no header and places, a line per rule (its places inline) says more, when every rule fits.
    if (groups.length <= budget) return groups.flatMap((g) => groupLines(g, 1, options.places, colours))
    return [`${header.slice(0, -1)}: ${ruleCounts(groups)}`]
  }
  if (groups.length + 1 > budget) {
    const shown = groups.slice(0, budget - 2)
    const rest = groups.slice(budget - 2)
    const restCount = rest.reduce((sum, g) => sum + g.items.length, 0)
    return [
      header,
      ...shown.flatMap((g) => groupLines(g, 1, options.places, colours)),
      `and ${plural(rest.length, 'more rule')} (${plural(restCount, 'warning')}): ${ruleCounts(rest)}`
    ]
  }
  // One line per rule, then a second line (its places) for as many rules as the budget allows, in order.
  let spare = budget - 1 - groups.length
  const lines = [header]
  for (const group of groups) {
    const two = spare > 0 && group.items.length > 1
    if (two) spare--
    lines.push(...groupLines(group, two ? 2 : 1, options.places, colours))
  }
  return lines
}

/** `kb-heading-depth ×261, kb-task-list ×33, …`: the rules of `groups` with their counts. */
function ruleCounts(groups: readonly RuleGroup[]): string {
  const named = groups.slice(0, namedInRest).map((g) => `${g.rule || '(no rule)'} ×${g.items.length}`)
  return named.join(', ') + (groups.length > namedInRest ? ', …' : '')
}

/** A rule's group in one line (places in parentheses) or two (places on their own line). */
function groupLines(group: RuleGroup, lines: 1 | 2, places = 3, colours: Palette): string[] {
  const first = group.items[0]!
  if (group.items.length === 1) return [formatDiagnostic(first, colours)]
  // A rule's messages may differ in detail (the target, the tag): the first stands for them all.
  const same = group.items.every((d) => d.message === first.message)
  const message = `${same ? '' : 'e.g. '}${first.message}${first.hint ? ` (${first.hint})` : ''}`
  const rule = group.rule ? ` ${colours.dim(`[${group.rule}]`)}` : ''
  const head = `${severityWord(group.severity, colours)}${rule} ×${group.items.length}: ${message}`
  const where = placesText(group.items, places)
  if (!where) return [head]
  return lines === 2 ? [head, `    ${where}`] : [`${head} (${where})`]
}
