/**
 * A problem found in the user's input (a file of the folder, a config, a
 * dialect construct). Shared by the scanner, the engine and the CLI's
 * output (which prints them, and as GitHub annotations under Actions).
 */
export interface Diagnostic {
  severity: 'error' | 'warning'
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
