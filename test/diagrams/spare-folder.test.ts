/**
 * Renderings written outside an unwritable cache live in one folder per
 * process, removed when the process exits: runs leave nothing behind in the
 * system's temporary folder.
 */
import {execFileSync} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {describe, expect, it} from 'vitest'
import {builtFile} from '../built.js'

const moduleUrl = pathToFileURL(builtFile('src/diagrams/spare-folder.js')).href

describe('spare folder', () => {
  it('keeps every rendering of a process in one folder and removes it when the process exits', () => {
    const script = [
      `const {writeSpareFile} = await import(${JSON.stringify(moduleUrl)})`,
      `const a = writeSpareFile('diagrams/mermaid-1.svg', '<svg>1</svg>')`,
      `const b = writeSpareFile('diagrams/mermaid-2.svg', '<svg>2</svg>')`,
      `const {readFileSync} = await import('node:fs')`,
      `console.log(JSON.stringify({a, b, text: readFileSync(b, 'utf8')}))`
    ].join('\n')
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {encoding: 'utf8'})
    const {a, b, text} = JSON.parse(out) as {a: string; b: string; text: string}
    expect(text).toBe('<svg>2</svg>')
    expect(path.dirname(a)).toBe(path.dirname(b))
    expect(path.basename(path.dirname(a))).toMatch(/^kbsync-diagram-/)
    expect(existsSync(path.dirname(a))).toBe(false)
  })

  it('a file written in this process is readable until it exits', async () => {
    const {writeSpareFile} = await import('../../src/diagrams/spare-folder.js')
    const file = writeSpareFile('mermaid-3.svg', '<svg/>')
    expect(readFileSync(file, 'utf8')).toBe('<svg/>')
  })
})
