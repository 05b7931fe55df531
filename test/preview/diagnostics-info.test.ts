/**
 * The preview's problems panel: errors in full, warnings and notes folded
 * behind a summary that counts them by rule; infos are neither errors nor
 * warnings, and come one line per rule.
 */
import {describe, expect, it} from 'vitest'
import {renderDiagnostics, type PageDiagnostic} from '../../src/preview/diagnostics.js'

const comment = (line: number): PageDiagnostic => ({
  severity: 'info',
  line,
  message: 'HTML comment left out of the body (readers never saw it).',
  rule: 'kb-html-comment'
})
const depth = (line: number): PageDiagnostic => ({
  severity: 'warning',
  line,
  message: 'Heading level 4',
  rule: 'kb-heading-depth'
})

describe('renderDiagnostics with infos', () => {
  it('counts only errors and warnings as such and sums infos up in one item per rule', () => {
    const html = renderDiagnostics([depth(2), comment(5), comment(9), comment(12)])
    expect(html).toContain('<span class="kb-warnings-count">1 warning, 3 notes</span>')
    expect(html.match(/kb-diagnostic-info/g)).toHaveLength(1)
    expect(html).toContain('3 HTML comments left out (the platform shows none)')
  })
})

describe('renderDiagnostics folding', () => {
  const many = [
    ...Array.from({length: 30}, (_, i) => depth(i + 1)),
    ...Array.from({length: 11}, (_, i) => ({...depth(40 + i), rule: 'kb-task-list'}))
  ]

  it('folds 41 warnings behind a closed summary that counts them by rule', () => {
    const html = renderDiagnostics(many)
    expect(html).toMatch(/<details class="kb-warnings" id="kb-warnings"><summary>/)
    expect(html).not.toMatch(/<details[^>]* open/)
    expect(html).toContain('41 warnings')
    expect(html).toContain('<span class="kb-rule-count" data-rule="kb-heading-depth">kb-heading-depth <b>30</b></span>')
    expect(html).toContain('<span class="kb-rule-count" data-rule="kb-task-list">kb-task-list <b>11</b></span>')
    expect(html.match(/kb-diagnostic-warning/g)).toHaveLength(41)
  })

  it('shows errors in full outside the fold', () => {
    const html = renderDiagnostics([...many, {severity: 'error', line: 3, message: 'broken link'}], 'a\nb\nc\nd')
    const fold = html.indexOf('<details')
    expect(html.indexOf('broken link')).toBeLessThan(fold)
    expect(html.indexOf('kb-line-error')).toBeLessThan(fold)
    expect(html).toContain('<h2>1 error</h2>')
  })

  it('has no fold when there are only errors', () => {
    expect(renderDiagnostics([{severity: 'error', message: 'x'}])).not.toContain('<details')
  })
})
