/** The preview's problems panel: infos are neither errors nor warnings, and come one line per rule. */
import {describe, expect, it} from 'vitest'
import {renderDiagnostics, type PageDiagnostic} from '../../src/preview/diagnostics.js'

const comment = (line: number): PageDiagnostic => ({severity: 'info', line, message: 'HTML comment left out of the body (readers never saw it).', rule: 'kb-html-comment'})

describe('renderDiagnostics with infos', () => {
  it('counts only errors and warnings in the heading and sums infos up in one item per rule', () => {
    const html = renderDiagnostics([{severity: 'warning', line: 2, message: 'Heading level 4', rule: 'kb-heading-depth'}, comment(5), comment(9), comment(12)])
    expect(html).toContain('<h2>1 warning</h2>')
    expect(html.match(/kb-diagnostic-info/g)).toHaveLength(1)
    expect(html).toContain('3 HTML comments left out (the platform shows none)')
  })
})
