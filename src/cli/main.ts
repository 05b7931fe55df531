/**
 * Entry of the CLI: dispatches to a command, prints help and version,
 * maps thrown errors to exit codes without leaking stack traces.
 */
import {parseArgs} from 'node:util'
import type {Command, CommandContext} from './command.js'
import {commands} from './commands/index.js'
import {exitCodes} from './exit-codes.js'
import {ConfigError, redact} from './config.js'
import {kbsyncVersion} from '../version.js'
import {closest} from './suggest.js'
import {RefusedError, RootTopicError, StoppedError} from '../sync/index.js'
import {StopRequest, type Shutdown} from './shutdown.js'
import {closeConversionPool} from '../workers/index.js'
import {WriteOutsideError} from '../local/index.js'
import {annotationData} from './output/annotations.js'
import {UsageError} from './errors.js'
import {jsonText, oneLine, ReadRefusedError, terminalText} from '../trust/index.js'

/** Streams and environment of one CLI invocation. */
export type RunOptions = Omit<CommandContext, 'positionals' | 'values'>

/** The package version, read from package.json. */
export function packageVersion(): string {
  return kbsyncVersion
}

/** Text of `kbsync --help`. */
export function generalHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length), 4)
  const lines = [
    'kbsync: keep a Pyrus knowledge base in step with a folder of Markdown.',
    '',
    'Usage: kbsync <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
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
  if (first === '-h' || first === '--help' || first === 'help') {
    const named = first === 'help' ? commands.find((c) => c.name === rest[0]) : undefined
    options.stdout.write(named ? commandHelp(named) : generalHelp())
    return exitCodes.ok
  }
  if (first === '-v' || first === '--version') {
    options.stdout.write(packageVersion() + '\n')
    return exitCodes.ok
  }
  const command = commands.find((c) => c.name === first)
  if (!command) {
    const guess = closest(
      first,
      commands.map((c) => c.name)
    )
    say(
      options,
      `kbsync: unknown command '${first}'.${guess ? ` Did you mean '${guess}'?` : ''} Run 'kbsync --help' for the list.\n`
    )
    return exitCodes.invalid
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    options.stdout.write(commandHelp(command))
    return exitCodes.ok
  }
  let parsed
  try {
    parsed = parseArgs({args: rest, options: command.options, allowPositionals: true, strict: true})
  } catch (error) {
    say(options, `kbsync ${command.name}: ${optionProblem(error as Error, command)}\nUsage: ${command.usage}\n`)
    return exitCodes.invalid
  }
  if (options.shutdown) options.shutdown.graceful = command.stopsGracefully === true
  // A conversion never yields: its workers are terminated at the stop, and what waited on them stops with the run.
  const forget = options.shutdown?.onStop(closeConversionPool)
  try {
    // A run that ended despite a signal (watch, preview and serve end so; a push whose last step had landed) says how it ended.
    return await command.run({...options, positionals: parsed.positionals, values: parsed.values})
  } catch (error) {
    const json = parsed.values.json === true
    if (stoppedBy(options.shutdown)) return stopped(error, command, {...options, json})
    return failed(error, command, {...options, json, verbose: rest.includes('--verbose')})
  } finally {
    forget?.()
  }
}

/** The stop request of `shutdown`, once a signal stopped the run. */
function stoppedBy(shutdown: Shutdown | undefined): StopRequest | undefined {
  const reason: unknown = shutdown?.signal.reason
  return shutdown?.signal.aborted && reason instanceof StopRequest ? reason : undefined
}

/**
 * A run a signal stopped (whatever it threw on the way out): one line that
 * says how far it got and that the next run finishes it; exit 130 (SIGINT)
 * or 143 (SIGTERM).
 */
function stopped(error: unknown, command: Command, options: RunOptions & {json: boolean}): number {
  const code = stoppedBy(options.shutdown)!.exitCode
  // Stopped before the engine said how far it got: while planning, when nothing is written.
  const line = error instanceof StoppedError ? error.message : new StoppedError('push', 0, undefined, error).message
  say(options, `kbsync ${command.name}: ${line}\n`)
  if (options.json)
    options.stdout.write(jsonText(JSON.stringify({status: 'stopped', exitCode: code, error: line}) + '\n'))
  return code
}

/**
 * A command's thrown error, printed by the rules of every line kbsync prints
 * (`say`): on stderr, under GitHub Actions as an annotation too, with
 * `--json` as a JSON document on stdout; resolves to the exit code.
 */
function failed(error: unknown, command: Command, options: RunOptions & {json: boolean; verbose: boolean}): number {
  // Secrets may hide in a third-party message; they never reach the terminal.
  const secrets = [options.env.KBSYNC_TOKEN, options.env.KBSYNC_SECURITY_KEY, options.env.GITHUB_TOKEN]
  // A link out of the folder (to write or to read through) is the folder's fault, refused before anything is written: invalid input.
  const usage =
    error instanceof UsageError ||
    error instanceof ConfigError ||
    error instanceof RootTopicError ||
    error instanceof RefusedError ||
    error instanceof WriteOutsideError ||
    error instanceof ReadRefusedError
  const code = usage ? exitCodes.invalid : exitCodes.failure
  const text = error instanceof Error ? error.message : String(error)
  // The message may quote the repository or the platform: on one line; a stack (--verbose) is kbsync's own lines.
  const stack = error instanceof Error && options.verbose && !usage ? (error.stack ?? '') : ''
  const frames = stack.includes('\n    at ') ? stack.slice(stack.indexOf('\n    at ')) : ''
  say(options, redact(`kbsync ${command.name}: ${oneLine(text)}${frames}\n`, secrets))
  if (options.env.GITHUB_ACTIONS === 'true') {
    // kbsync's own annotation: its message escaped as the toolkit escapes it, control characters shown escaped.
    const line = redact(`::error title=kbsync ${command.name}::${annotationData(text)}\n`, secrets)
    ;(options.json ? options.stderr : options.stdout).write(line)
  }
  // With --json, stdout holds one JSON document whatever happens: scripts parse it.
  if (options.json)
    options.stdout.write(
      jsonText(redact(JSON.stringify({status: 'error', exitCode: code, error: text}) + '\n', secrets))
    )
  return code
}

/**
 * Writes `text` (lines for people, which may quote the repository, the
 * platform or a third-party message) on stderr by the rules of every line
 * kbsync prints (`terminalText`): control characters shown escaped, and under
 * GitHub Actions no line able to start a workflow command.
 */
function say(options: RunOptions, text: string): void {
  options.stderr.write(terminalText(text, {github: options.env.GITHUB_ACTIONS === 'true'}))
}

/**
 * Node's message for a bad option, made plain: an unknown option names the
 * closest known one ("did you mean"); Node's hint about `--` only fits a
 * positional that starts with a dash, which a mistyped option is not.
 */
function optionProblem(error: Error, command: Command): string {
  const unknown = /^Unknown option '(-{1,2})([^']+)'/.exec(error.message)
  if (!unknown) return error.message
  const names = Object.keys(command.options ?? {})
  const guess = closest(unknown[2]!, names)
  return `unknown option ${unknown[1]}${unknown[2]}${guess ? ` (did you mean --${guess}?)` : ''}. See 'kbsync ${command.name} --help'.`
}
