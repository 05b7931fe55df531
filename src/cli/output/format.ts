/** One diagnostic as one line for humans, as compilers print them. */
import type {Diagnostic, Severity} from '../../local/diagnostic.js'
import {oneLine} from '../../trust/index.js'
import {palette, type Palette} from './colours.js'

/** The severity's word, coloured: red error, yellow warning, cyan info. */
export function severityWord(severity: Severity, colours: Palette = palette(false)): string {
  if (severity === 'error') return colours.red('error')
  return severity === 'warning' ? colours.yellow('warning') : colours.cyan('info')
}

/**
 * `d` as it may be shown: its file, message and hint (which may quote a
 * title, a file name, a platform's answer) on one line each, every control
 * character escaped (`\n`, `\x1b`).
 */
export function visibleDiagnostic(d: Diagnostic): Diagnostic {
  const shown: Diagnostic = {...d, message: oneLine(d.message)}
  if (d.file !== undefined) shown.file = oneLine(d.file)
  if (d.hint !== undefined) shown.hint = oneLine(d.hint)
  return shown
}

/** Formats a diagnostic for humans, on one line: `file:line:col: severity: message (hint) [rule]`. */
export function formatDiagnostic(diagnostic: Diagnostic, colours: Palette = palette(false)): string {
  const d = visibleDiagnostic(diagnostic)
  const where = d.file ? `${d.file}${d.line ? `:${d.line}${d.column ? `:${d.column}` : ''}` : ''}: ` : ''
  const hint = d.hint ? ` (${d.hint})` : ''
  const rule = d.rule ? colours.dim(` [${d.rule}]`) : ''
  return `${colours.bold(where)}${severityWord(d.severity, colours)}: ${d.message}${hint}${rule}`
}
