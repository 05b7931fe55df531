/** One diagnostic as one line for humans, as compilers print them. */
import type {Diagnostic, Severity} from '../../local/diagnostic.js'
import {palette, type Palette} from './colours.js'

/** The severity's word, coloured: red error, yellow warning, cyan info. */
export function severityWord(severity: Severity, colours: Palette = palette(false)): string {
  if (severity === 'error') return colours.red('error')
  return severity === 'warning' ? colours.yellow('warning') : colours.cyan('info')
}

/** Formats a diagnostic for humans: `file:line:col: severity: message (hint) [rule]`. */
export function formatDiagnostic(d: Diagnostic, colours: Palette = palette(false)): string {
  const where = d.file ? `${d.file}${d.line ? `:${d.line}${d.column ? `:${d.column}` : ''}` : ''}: ` : ''
  const hint = d.hint ? ` (${d.hint})` : ''
  const rule = d.rule ? colours.dim(` [${d.rule}]`) : ''
  return `${colours.bold(where)}${severityWord(d.severity, colours)}: ${d.message}${hint}${rule}`
}
