/**
 * The shape of a CLI command. Each command lives in its own module under
 * `commands/` and is listed in `commands/index.ts`.
 */
import type {ParseArgsConfig} from 'node:util'
import type {Shutdown} from './shutdown.js'

/** Streams and environment a command runs with (injectable for tests). */
export interface CommandContext {
  /** Positional arguments after the command name. */
  positionals: string[]
  /** Parsed option values (see `Command.options`). */
  values: Record<string, string | boolean | Array<string | boolean> | undefined>
  cwd: string
  env: NodeJS.ProcessEnv
  stdout: NodeJS.WritableStream & {isTTY?: boolean; columns?: number}
  stderr: NodeJS.WritableStream & {isTTY?: boolean; columns?: number}
  stdin: NodeJS.ReadableStream
  /** The run's stop (SIGINT/SIGTERM, `shutdown.ts`); absent when the CLI is run in-process without one. */
  shutdown?: Shutdown
}

/** A command of `kbsync`. */
export interface Command {
  name: string
  /** One line for the command list. */
  summary: string
  /** Usage line, e.g. `kbsync convert [--from gfm|kb] [--to kb|gfm|html|comment-html] [FILE]`. */
  usage: string
  /** Longer description and option list for `--help`. */
  description: string
  /** Examples shown by `--help`. */
  examples: string[]
  options: NonNullable<ParseArgsConfig['options']>
  /**
   * Whether the command stops by the run's signal (`context.shutdown`):
   * it finishes what is in flight, records it and returns. A command without
   * it ends at once on SIGINT/SIGTERM, as a process without a handler does.
   */
  stopsGracefully?: boolean
  /** Runs the command; resolves to the exit code. */
  run(context: CommandContext): Promise<number>
}
