/**
 * Entry of the CLI: prints help and version, and hands a command to
 * `run-command.ts`. Only the command named is loaded (`commands/catalog.ts`):
 * help and version import no conversion, server or preview stack.
 */
import type {Command, CommandContext} from './command.js'
import {commandCatalog} from './commands/catalog.js'
import {exitCodes} from './exit-codes.js'
import {kbsyncVersion} from '../version.js'

/** Streams and environment of one CLI invocation. */
export type RunOptions = Omit<CommandContext, 'positionals' | 'values'>

/** The package version, read from package.json. */
export function packageVersion(): string {
  return kbsyncVersion
}

/** Text of `kbsync --help`. */
export function generalHelp(): string {
  const width = Math.max(...commandCatalog.map((c) => c.name.length), 4)
  const lines = [
    'kbsync: keep a Pyrus knowledge base in step with a folder of Markdown.',
    '',
    'Usage: kbsync <command> [options]',
    '',
    'Commands:',
    ...commandCatalog.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    '  -h, --help     show help (also: kbsync <command> --help)',
    '  -v, --version  print the version',
    '',
    'Exit codes: 0 success, 1 runtime failure, 2 invalid input or usage,',
    '3 unresolved conflicts, 4 changes pending (plan --exit-code).'
  ]
  return lines.join('\n') + '\n'
}

/** Text of `kbsync <command> --help`. */
export function commandHelp(command: Command): string {
  const lines = [`Usage: ${command.usage}`, '', command.description.trimEnd(), '']
  if (command.examples.length > 0) {
    lines.push('Examples:', ...command.examples.map((e) => `  ${e}`), '')
  }
  return lines.join('\n')
}

/**
 * Runs the CLI with `argv` (without `node` and the script) and resolves to the exit code.
 */
export async function main(argv: string[], options: RunOptions): Promise<number> {
  const [first, ...rest] = argv
  if (first === undefined) {
    // A script that runs `kbsync` with no command has lost its command: that must not pass as success.
    options.stderr.write(generalHelp())
    return exitCodes.invalid
  }
  const named = first === 'help' ? commandCatalog.find((c) => c.name === rest[0]) : undefined
  if (first === '-h' || first === '--help' || (first === 'help' && !named)) {
    options.stdout.write(generalHelp())
    return exitCodes.ok
  }
  if (first === '-v' || first === '--version') {
    options.stdout.write(packageVersion() + '\n')
    return exitCodes.ok
  }
  const {runCommand} = await import('./run-command.js')
  return named ? runCommand(named.name, ['--help'], options) : runCommand(first, rest, options)
}
