/**
 * The problems of one page (errors and warnings, the same the plan shows).
 * Errors come first and in full, with the source lines around each, so a
 * broken file explains itself in the page; warnings and notes are folded
 * behind one summary line that counts them by rule, so forty warnings do
 * not push the article below the first screen.
 */
import {groupByRule, infoSentence, plural, type RuleGroup} from '../local/diagnostic-groups.js'
import type {Severity} from '../local/diagnostic.js'
import {escapeHtml} from './escape.js'

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
  const byLine = (a: PageDiagnostic, b: PageDiagnostic) => (a.line ?? 0) - (b.line ?? 0)
  const errors = diagnostics.filter((d) => d.severity === 'error').sort(byLine)
  const warnings = diagnostics.filter((d) => d.severity === 'warning').sort(byLine)
  // Infos (an HTML comment left out) are neither errors nor warnings: one line per rule, not one each.
  const notes = groupByRule(diagnostics.filter((d) => d.severity === 'info'))
  const lines = source?.replace(/\r\n?/g, '\n').split('\n')
  const shown = errors.length
    ? `<h2>${plural(errors.length, 'error')}</h2><ul>${errors.map((d) => renderOne(d, lines)).join('')}</ul>`
    : ''
  return (
    `<section class="kb-diagnostics${errors.length ? ' kb-has-errors' : ''}" id="kb-diagnostics" aria-label="Problems">` +
    shown +
    renderFolded(warnings, notes) +
    `</section>`
  )
}

/** Warnings and notes behind a closed `<details>` whose summary counts them by rule; empty when there are none. */
function renderFolded(warnings: PageDiagnostic[], notes: RuleGroup[]): string {
  if (warnings.length === 0 && notes.length === 0) return ''
  const noteCount = notes.reduce((sum, group) => sum + group.items.length, 0)
  const counts = [warnings.length ? plural(warnings.length, 'warning') : '', noteCount ? plural(noteCount, 'note') : '']
  const rules = groupByRule(warnings)
    .concat(notes)
    .map(
      (group) =>
        `<span class="kb-rule-count" data-rule="${escapeHtml(group.rule)}">${escapeHtml(group.rule || 'other')} <b>${group.items.length}</b></span>`
    )
  const items =
    warnings.map((d) => renderOne(d, undefined)).join('') +
    notes
      .map((group) => {
        const rule = group.rule ? ` <span class="kb-where">[${escapeHtml(group.rule)}]</span>` : ''
        return `<li class="kb-diagnostic kb-diagnostic-info"><span class="kb-severity">note</span>: ${escapeHtml(infoSentence(group))}${rule}</li>`
      })
      .join('')
  return (
    `<details class="kb-warnings" id="kb-warnings"><summary><span class="kb-warnings-count">${counts.filter(Boolean).join(', ')}</span>` +
    `<span class="kb-rule-counts">${rules.join('')}</span></summary><ul>${items}</ul></details>`
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
