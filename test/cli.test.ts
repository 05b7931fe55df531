import {PassThrough} from 'node:stream'
import {describe, expect, it} from 'vitest'
import {main} from '../src/cli/index.js'

function run(argv: string[]) {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (d) => (out += String(d)))
  stderr.on('data', (d) => (err += String(d)))
  return main(argv, {cwd: process.cwd(), env: {}, stdout, stderr, stdin: new PassThrough()}).then((code) => ({code, out, err}))
}

describe('kbsync CLI entry', () => {
  it('prints help with the exit codes', async () => {
    const result = await run(['--help'])
    expect(result.code).toBe(0)
    expect(result.out).toContain('Usage: kbsync <command>')
    expect(result.out).toContain('Exit codes')
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
