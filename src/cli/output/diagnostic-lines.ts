/**
 * What a run prints of its diagnostics, as lines: every error in full first
 * (never hidden behind warnings), then the warning section (grouped by rule
 * unless verbose, bounded to one screen), then one line per rule of infos.
 */
import type {Diagnostic} from '../../local/diagnostic.js'
import {palette, type Palette} from './colours.js'
import {formatDiagnostic} from './format.js'
import {infoLines} from './infos.js'
import {warningLines} from './warnings.js'

/** Options of `diagnosticLines`. */
export interface DiagnosticLinesOptions {
  /** Every warning one line each. */
  verbose?: boolean
  /** Leave the info lines out (`--quiet`). */
  withoutInfos?: boolean
  /** Most lines of the warning section (default 20). */
  maxWarningLines?: number
  colours?: Palette
}

/** The lines for `list`: errors, warnings, infos. A pure function: plain data in, lines out. */
export function diagnosticLines(list: readonly Diagnostic[], options: DiagnosticLinesOptions = {}): string[] {
  const colours = options.colours ?? palette(false)
  const errors = list.filter((d) => d.severity === 'error')
  const warnings = list.filter((d) => d.severity === 'warning')
  const infos = list.filter((d) => d.severity === 'info')
  return [
    ...errors.map((d) => formatDiagnostic(d, colours)),
    ...warningLines(warnings, {
      ...(options.verbose ? {verbose: true} : {}),
      ...(options.maxWarningLines !== undefined ? {maxLines: options.maxWarningLines} : {}),
      colours
    }),
    ...(options.withoutInfos ? [] : infoLines(infos, colours))
  ]
}
