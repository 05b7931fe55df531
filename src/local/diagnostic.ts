/**
 * A problem found in the user's input (a file of the folder, a config, a
 * dialect construct). Shared by the scanner, the engine and the CLI's
 * output (which prints them, and as GitHub annotations under Actions).
 */

/**
 * How much a diagnostic matters. `error`: nothing is written until it is
 * fixed. `warning`: written, but not as the file says. `info`: written as the
 * reader saw it, noted for the record (an HTML comment left out): counted in
 * summaries, never printed one line each, never an error or a warning.
 */
export type Severity = 'error' | 'warning' | 'info'

export interface Diagnostic {
  severity: Severity
  /** Path relative to the synced folder, with `/`; absent for run-wide problems. */
  file?: string
  /** 1-based line and column where known. */
  line?: number
  column?: number
  /** What is wrong. */
  message: string
  /** How to fix it. */
  hint?: string
  /** Stable machine-readable id, e.g. `duplicate-title`, `missing-link-target`, `kb-unknown-node`. */
  rule?: string
}

/**
 * The severity of a vfile message: `fatal` true is an error, false a
 * warning, and null or undefined (what `file.info()` gives) an info.
 */
export function severityOfFatal(fatal: boolean | null | undefined): Severity {
  if (fatal === true) return 'error'
  return fatal === false ? 'warning' : 'info'
}

/** How many diagnostics of each severity `list` holds. */
export interface SeverityCounts {
  errors: number
  warnings: number
  infos: number
}

/** Counts `list` by severity (an info is neither an error nor a warning). */
export function countSeverities(list: readonly Diagnostic[]): SeverityCounts {
  const counts: SeverityCounts = {errors: 0, warnings: 0, infos: 0}
  for (const d of list) {
    if (d.severity === 'error') counts.errors++
    else if (d.severity === 'warning') counts.warnings++
    else counts.infos++
  }
  return counts
}
