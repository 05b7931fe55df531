/**
 * Counts of a run's diagnostics for `--json`: by severity and by rule, beside
 * the full list the JSON already carries (fields are only ever added).
 */
import {countSeverities, type Diagnostic, type Severity, type SeverityCounts} from '../../local/diagnostic.js'
import {groupByRule} from './group.js'

/** The counts of a list of diagnostics. */
export interface DiagnosticCounts extends SeverityCounts {
  /** One entry per rule and severity, in order of first appearance. */
  rules: Array<{rule: string; severity: Severity; count: number; files: number}>
}

/** Counts `list` by severity and by rule. */
export function diagnosticCounts(list: readonly Diagnostic[]): DiagnosticCounts {
  return {
    ...countSeverities(list),
    rules: groupByRule(list).map((g) => ({
      rule: g.rule,
      severity: g.severity,
      count: g.items.length,
      files: g.files.length
    }))
  }
}

/** A value holding `diagnostics` (a plan) with their counts added as `diagnosticCounts`, for `--json`. */
export function withCounts<T extends {diagnostics: readonly Diagnostic[]}>(
  value: T
): T & {diagnosticCounts: DiagnosticCounts} {
  return {...value, diagnosticCounts: diagnosticCounts(value.diagnostics)}
}
