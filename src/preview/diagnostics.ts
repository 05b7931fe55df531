/**
 * The problems of one page (errors and warnings, the same the plan shows),
 * with the source lines around each error, so a broken file explains itself
 * in the page instead of leaving it blank.
 */
import {escapeHtml} from './escape.js'
import {infoLines} from '../cli/output/infos.js'
import type {Severity} from '../local/diagnostic.js'

/** A problem of the page's file. */
export interface PageDiagnostic {
  severity: Severity
  /** 1-based line and column in the file, where known. */
  line?: number
  column?: number
  message: string
  hint?: string
  rule?: string
}

/** Lines of source shown above and below an error. */
const context = 2

/**
 * The list of problems as a `<section>`, empty string when there are none.
 * With `source` (the file's text), each located error shows its lines.
 */
export function renderDiagnostics(diagnostics: PageDiagnostic[], source?: string): string {
  if (diagnostics.length === 0) return ''
  // Infos (an HTML comment left out) are neither errors nor warnings: one line per rule, not one each.
  const sorted = diagnostics.filter((d) => d.severity !== 'info').sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
  const errors = sorted.filter((d) => d.severity === 'error').length
  const warnings = sorted.length - errors
  const notes = infoLines(diagnostics.filter((d) => d.severity === 'info'))
  const counts = [errors ? `${errors} error${errors === 1 ? '' : 's'}` : '', warnings ? `${warnings} warning${warnings === 1 ? '' : 's'}` : '', errors + warnings === 0 ? 'Notes' : '']
  const lines = source?.replace(/\r\n?/g, '\n').split('\n')
  const items =
    sorted.map((d) => renderOne(d, d.severity === 'error' ? lines : undefined)).join('') +
    notes.map((note) => `<li class="kb-diagnostic kb-diagnostic-info">${escapeHtml(note)}</li>`).join('')
  return (
    `<section class="kb-diagnostics${errors ? ' kb-has-errors' : ''}" id="kb-diagnostics" aria-label="Problems">` +
    `<h2>${counts.filter(Boolean).join(', ')}</h2><ul>${items}</ul></section>`
  )
}

function renderOne(d: PageDiagnostic, lines: string[] | undefined): string {
  const where = d.line ? `line ${d.line}${d.column ? `:${d.column}` : ''}` : ''
  const parts = [
    `<span class="kb-severity">${d.severity}</span>`,
    where ? ` <span class="kb-where" data-line="${d.line}">${where}</span>` : '',
    `: ${escapeHtml(d.message)}`,
    d.rule ? ` <span class="kb-where">[${escapeHtml(d.rule)}]</span>` : '',
    d.hint ? `<div class="kb-hint">${escapeHtml(d.hint)}</div>` : '',
    lines && d.line ? renderExcerpt(lines, d.line) : ''
  ]
  return `<li class="kb-diagnostic kb-diagnostic-${d.severity}">${parts.join('')}</li>`
}

function renderExcerpt(lines: string[], line: number): string {
  const first = Math.max(1, line - context)
  const last = Math.min(lines.length, line + context)
  const rows: string[] = []
  for (let number = first; number <= last; number++) {
    const mark = number === line ? ' class="kb-line-error"' : ''
    rows.push(`<div${mark}><span class="kb-line-number">${number}</span>${escapeHtml(lines[number - 1] ?? '')}</div>`)
  }
  return `<div class="kb-source">${rows.join('')}</div>`
}
