/**
 * Runs one command of the CLI: parses its options, runs it, and maps what
 * it throws to an exit code and a message without a stack trace. Loaded by
 * `main.ts` only when a command runs (it imports the engines' errors).
 */
import {parseArgs} from 'node:util'
import type {Command} from './command.js'
import {commandCatalog} from './commands/catalog.js'
import {exitCodes} from './exit-codes.js'
import {ConfigError, redact} from './config.js'
import {closest} from './suggest.js'
import {RefusedError, RootTopicError, StoppedError} from '../sync/index.js'
import {StopRequest, type Shutdown} from './shutdown.js'
import {closeConversionPool} from '../workers/index.js'
import {WriteOutsideError} from '../local/index.js'
import {annotationData} from './output/annotations.js'
import {UsageError} from './errors.js'
import {jsonText, oneLine, ReadRefusedError, terminalText} from '../trust/index.js'
import {commandHelp, type RunOptions} from './main.js'

/**
 * Runs the command `name` with the arguments after it, `rest`; resolves to the exit code.
 */
export async function runCommand(name: string, rest: string[], options: RunOptions): Promise<number> {
  const entry = commandCatalog.find((c) => c.name === name)
  if (!entry) {
    const guess = closest(
      name,
      commandCatalog.map((c) => c.name)
    )
    say(
      options,
      `kbsync: unknown command '${name}'.${guess ? ` Did you mean '${guess}'?` : ''} Run 'kbsync --help' for the list.\n`
    )
    return exitCodes.invalid
  }
  const command = await entry.load()
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
