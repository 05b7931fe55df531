/** Every command's `--help`: a usage line, examples, and each option it accepts explained. */
import {describe, expect, it} from 'vitest'
import {commands} from '../../src/cli/commands/index.js'
import {run, tempDir} from './helpers.js'

describe('kbsync <command> --help', () => {
  it.each(commands.map((command) => [command.name, command] as const))(
    '%s shows usage, examples and every option',
    async (name, command) => {
      expect(command.usage).toMatch(new RegExp(`^kbsync ${name}\\b`))
      expect(command.examples.length).toBeGreaterThan(0)
      for (const example of command.examples) expect(example).toContain(`kbsync ${name}`)
      const help = await run([name, '--help'], {cwd: await tempDir()})
      expect(help.code).toBe(0)
      expect(help.out).toContain(`Usage: ${command.usage}`)
      expect(help.out).toContain(`Examples:\n  ${command.examples[0]}`)
      const missing = Object.keys(command.options).filter(
        (option) => !new RegExp(`--${option}\\b`).test(command.description)
      )
      expect(missing, `options of ${name} not described in --help`).toEqual([])
    }
  )
})

describe('mistakes on the command line', () => {
  it('names the command or option meant by a typo, and exits 2', async () => {
    const cwd = await tempDir()
    const command = await run(['pus', '.'], {cwd})
    expect([command.code, command.err]).toEqual([
      2,
      expect.stringContaining("unknown command 'pus'. Did you mean 'push'?")
    ])
    const option = await run(['push', '--dryrun'], {cwd})
    expect([option.code, option.err]).toEqual([
      2,
      expect.stringContaining('unknown option --dryrun (did you mean --dry-run?)')
    ])
    expect(option.err).not.toContain("place it at the end of the command after '--'")
    const both = await run(['plan', cwd, '--quiet', '--verbose'], {cwd})
    expect([both.code, both.err]).toEqual([2, expect.stringContaining('--quiet and --verbose contradict each other')])
    const nothingClose = await run(['plan', '--frobnicate'], {cwd})
    expect(nothingClose.err).toContain("unknown option --frobnicate. See 'kbsync plan --help'.")
  })

  it('writes one JSON document on stdout with --json even when the run fails', async () => {
    const cwd = await tempDir()
    const failed = await run(['push', cwd, '--json'], {
      cwd,
      env: {KBSYNC_API_URL: 'http://127.0.0.1:1/v4', KBSYNC_TOKEN: 'tok-SECRET-1'}
    })
    expect(failed.code).toBe(1)
    expect(JSON.parse(failed.out)).toMatchObject({status: 'error', exitCode: 1, error: expect.any(String)})
    expect(failed.out + failed.err).not.toContain('tok-SECRET-1')
  })
})
