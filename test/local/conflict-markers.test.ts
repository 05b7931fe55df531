import {describe, expect, it} from 'vitest'
import {conflictMarkerDiagnostics} from '../../src/local/conflict-markers.js'
import {scanFolder} from '../../src/local/index.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'
import {afterAll} from 'vitest'

const folders = temporaryFolders('markers')
afterAll(() => folders.removeAll())

const conflicted = ['Intro', '', '<<<<<<< HEAD', 'mine', '=======', 'theirs', '>>>>>>> origin/main', ''].join('\n')

describe('conflict markers', () => {
  it('finds an unresolved conflict at its opening line', () => {
    const found = conflictMarkerDiagnostics(conflicted, 'a.md')
    expect(found).toEqual([
      expect.objectContaining({severity: 'error', file: 'a.md', line: 3, rule: 'conflict-markers'})
    ])
    expect(found[0]!.hint).toMatch(/resolve the conflict/i)
  })

  it('takes no setext underline, fenced example or incomplete set for a conflict', () => {
    expect(conflictMarkerDiagnostics('Title\n=======\n\ntext\n', 'a.md')).toEqual([])
    expect(conflictMarkerDiagnostics('```text\n' + conflicted + '```\n', 'a.md')).toEqual([])
    expect(conflictMarkerDiagnostics('~~~~\n' + conflicted + '~~~~\n', 'a.md')).toEqual([])
    expect(conflictMarkerDiagnostics('<<<<<<< HEAD\nmine\n', 'a.md')).toEqual([])
    expect(conflictMarkerDiagnostics('    <<<<<<< HEAD\n    =======\n    >>>>>>> x\n', 'a.md')).toEqual([])
  })

  it('finds a conflict after a closed fence, and each of several', () => {
    const text = '```\ncode\n```\n\n' + conflicted + '\n' + conflicted
    expect(conflictMarkerDiagnostics(text, 'a.md').map((d) => d.line)).toEqual([7, 15])
  })

  it('is an error of the scan at the file line, front matter counted', async () => {
    const dir = await folders.make()
    await writeFiles(dir, {'Guide.md': '---\ntitle: Guide\n---\n\n' + conflicted, 'Other.md': 'fine\n'})
    const scan = await scanFolder(dir)
    const errors = scan.diagnostics.filter((d) => d.severity === 'error')
    expect(errors).toEqual([expect.objectContaining({file: 'Guide.md', line: 7, rule: 'conflict-markers'})])
  })
})
