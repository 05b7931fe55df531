import {describe, expect, it} from 'vitest'
import {run as runIn} from './cli/helpers.js'

const run = (argv: string[]) => runIn(argv, {cwd: process.cwd()})

describe('kbsync CLI entry', () => {
  it('prints help with the exit codes', async () => {
    const result = await run(['--help'])
    expect(result.code).toBe(0)
    expect(result.out).toContain('Usage: kbsync <command>')
    expect(result.out).toContain('Exit codes')
  })

  it('without a command prints the help on stderr and exits 2 (a script that lost its command must fail)', async () => {
    const result = await run([])
    expect(result.code).toBe(2)
    expect(result.out).toBe('')
    expect(result.err).toContain('Usage: kbsync <command>')
  })

  it('prints the package version', async () => {
    const result = await run(['--version'])
    expect(result.out.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  })

  it('rejects an unknown command with exit code 2', async () => {
    const result = await run(['frobnicate'])
    expect(result.code).toBe(2)
    expect(result.err).toContain("unknown command 'frobnicate'")
  })
})
