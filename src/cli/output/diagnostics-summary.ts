/**
 * The diagnostics of a run as a Markdown table for `$GITHUB_STEP_SUMMARY`:
 * one row per rule with its counts and first places, and how many of them
 * were annotated (at most `annotationsPerRule` each, errors first), so what
 * the runner does not show as annotations is still counted somewhere.
 */
import type {Diagnostic} from '../../local/diagnostic.js'
import {annotated} from './annotations.js'
import {groupByRule, placesText} from './group.js'
import {cell} from './markdown-cell.js'

const order = {error: 0, warning: 1, info: 2} as const

/** The table of `list` by rule (errors first), `''` when there are none. */
export function diagnosticsMarkdown(list: readonly Diagnostic[]): string {
  if (list.length === 0) return ''
  const shown = new Set(annotated(list))
  const groups = groupByRule(list).sort((a, b) => order[a.severity] - order[b.severity])
  // Infos are never annotated: they are counted in the table, not "left out".
  const left = list.filter((d) => d.severity !== 'info').length - shown.size
  const lines = [
    '| Severity | Rule | Count | Files | Annotated | First places |',
    '| --- | --- | --- | --- | --- | --- |'
  ]
  for (const group of groups) {
    const annotatedCount = group.items.filter((d) => shown.has(d)).length
    const places = placesText(group.items, 3)
    lines.push(
      `| ${group.severity} | ${cell(group.rule || '(none)')} | ${group.items.length} | ${group.files.length} | ${annotatedCount} | ${cell(places)} |`
    )
  }
  const note =
    left > 0
      ? `${left} not annotated (the runner shows only the first few; at most 10 per rule are annotated, errors first); counted here.`
      : 'Every one is annotated.'
  return [`#### Messages by rule`, '', note, '', ...lines].join('\n') + '\n'
}
