/** Every command's `--help`: a usage line, examples, and each option it accepts explained. */
import {describe, expect, it} from 'vitest'
import {commands} from '../../src/cli/commands/index.js'
import {run, tempDir} from './helpers.js'

describe('kbsync <command> --help', () => {
  it.each(commands.map((command) => [command.name, command] as const))('%s shows usage, examples and every option', async (name, command) => {
    expect(command.usage).toMatch(new RegExp(`^kbsync ${name}\\b`))
    expect(command.examples.length).toBeGreaterThan(0)
    for (const example of command.examples) expect(example).toContain(`kbsync ${name}`)
    const help = await run([name, '--help'], {cwd: await tempDir()})
    expect(help.code).toBe(0)
    expect(help.out).toContain(`Usage: ${command.usage}`)
    expect(help.out).toContain(`Examples:\n  ${command.examples[0]}`)
    const missing = Object.keys(command.options).filter((option) => !new RegExp(`--${option}\\b`).test(command.description))
    expect(missing, `options of ${name} not described in --help`).toEqual([])
  })
})
