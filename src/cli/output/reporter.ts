/**
 * The reporter: every line the CLI prints goes through it, so colour,
 * `--json`, `--quiet`, `--verbose`, progress and GitHub annotations are
 * decided in one place.
 */
import {appendFile} from 'node:fs/promises'
import type {Diagnostic} from '../../local/diagnostic.js'
import {redact} from '../../api/redact.js'
import {annotated, annotation, annotationData} from './annotations.js'
import {colourEnabled, palette, type Palette} from './colours.js'
import {diagnosticLines} from './diagnostic-lines.js'
import {formatDiagnostic, visibleDiagnostic} from './format.js'
import {createScreen} from './screen.js'
import {oneLine} from '../../trust/index.js'

/** A writable stream as the reporter needs it. */
export interface OutputStream {
  write(chunk: string): unknown
  isTTY?: boolean
  columns?: number
}

/** Options of `createReporter`. */
export interface ReporterOptions {
  stdout: OutputStream
  stderr: OutputStream
  env: NodeJS.ProcessEnv
  /** Only `json(value)` reaches stdout; everything else for humans goes to stderr or nowhere. */
  json?: boolean
  /** Only warnings, errors and diagnostics. */
  quiet?: boolean
  /** Also `debug` lines, and every action on a terminal. */
  verbose?: boolean
  /** The synced folder: diagnostic paths are relative to it (for annotation paths). */
  dir?: string
  /** Secrets to mask in every line (a last line of defence: messages should not hold them anyway). */
  secrets?: Array<string | undefined>
}

/** What commands print through. */
export interface Reporter {
  /** Whether stdout is a terminal (and not in JSON mode): progress bars, in-place status. */
  readonly interactive: boolean
  readonly colours: Palette
  /** `file:line:col: error|warning: message (hint)` on stderr; also a workflow command under GitHub Actions. */
  diagnostic(d: Diagnostic): void
  /**
   * A run's diagnostics: every error in full, then warnings grouped by rule
   * (one screen at most; each with `--verbose`), then one line per rule of
   * infos; under GitHub Actions at most 10 annotations per rule, errors first.
   * Returns whether one was an error.
   */
  diagnostics(list: readonly Diagnostic[]): boolean
  /** Text for people on stdout; may be several lines kbsync joined (values from the repository in it must be `oneLine`d). */
  info(message: string): void
  /** One line (a newline in it is shown as `\n`), as are those of `warn`, `error`, `debug`, `action` and `status`. */
  success(message: string): void
  warn(message: string): void
  error(message: string): void
  /** Only with `--verbose`. */
  debug(message: string): void
  /** One line per action off a terminal; on a terminal, the label of the progress bar (a line too with `--verbose`). */
  action(line: string): void
  /** A progress bar on a terminal; nothing otherwise. */
  progress(done: number, total: number, label?: string): void
  /** Ends an active progress bar (clears it). */
  endProgress(): void
  /** A status line redrawn in place on a terminal, a plain line otherwise (watch mode). */
  status(line: string): void
  /** A value as JSON on stdout (the only stdout output in `--json` mode). */
  json(value: unknown): void
  /** Appends Markdown to `$GITHUB_STEP_SUMMARY` when set; resolves once written. */
  stepSummary(markdown: string): Promise<void>
}

export {formatDiagnostic} from './format.js'

/** Creates the reporter of one command run. */
export function createReporter(options: ReporterOptions): Reporter {
  const {stdout, stderr, env} = options
  const json = options.json === true
  const quiet = options.quiet === true && !options.verbose
  const verbose = options.verbose === true
  const interactive = stdout.isTTY === true && !json
  const colour = {stdout: colourEnabled(stdout, env), stderr: colourEnabled(stderr, env)}
  const outColours = palette(colour.stdout)
  const errColours = palette(colour.stderr)
  const github = env.GITHUB_ACTIONS === 'true'
  const secrets = options.secrets ?? []
  const mask = (text: string) => redact(text, secrets)
  const screen = createScreen({stdout, stderr}, interactive, {mask, github, colour})
  const {out, err} = screen
  const where = {
    ...(options.dir ? {dir: options.dir} : {}),
    ...(env.GITHUB_WORKSPACE ? {workspace: env.GITHUB_WORKSPACE} : {})
  }
  // The runner reads workflow commands from both streams; stdout must stay pure JSON with --json.
  const annotate = (d: Diagnostic) => screen.command(annotation(d, where), json ? 'stderr' : 'stdout')

  return {
    interactive,
    colours: outColours,
    diagnostic(d) {
      err(formatDiagnostic(d, errColours))
      if (github) annotate(d)
    },
    diagnostics(list) {
      const shown = list.map(visibleDiagnostic)
      for (const line of diagnosticLines(shown, {verbose, withoutInfos: quiet, colours: errColours})) err(line)
      // The runner shows only the first few annotations of a step: the rest are counted in the step summary.
      if (github) for (const d of annotated(list)) annotate(d)
      return list.some((d) => d.severity === 'error')
    },
    info(message) {
      if (!json && !quiet) out(message)
    },
    success(message) {
      if (!json && !quiet) out(outColours.green(oneLine(message)))
    },
    warn(message) {
      err(`${errColours.yellow('warning')}: ${oneLine(message)}`)
    },
    error(message) {
      err(`${errColours.red('error')}: ${oneLine(message)}`)
      // A failure with no file of its own (a conflict, refused deletions) still shows on the run's summary page.
      if (github) screen.command(`::error::${annotationData(message)}`, json ? 'stderr' : 'stdout')
    },
    debug(message) {
      if (verbose) err(errColours.dim(oneLine(message)))
    },
    action(text) {
      if (json || quiet) return
      const line = oneLine(text)
      if (!interactive || verbose) out(line)
      if (interactive) screen.relabel(line)
    },
    progress(done, total, label = '') {
      if (interactive && !quiet) screen.bar(done, total, label)
    },
    endProgress: () => screen.endBar(),
    status(text) {
      if (json) return
      const line = oneLine(text)
      if (interactive) screen.status(line)
      else if (!quiet) out(line)
    },
    json(value) {
      screen.raw(JSON.stringify(value, null, 2) + '\n')
    },
    async stepSummary(markdown) {
      const file = env.GITHUB_STEP_SUMMARY
      if (!file) return
      await appendFile(file, mask(markdown.endsWith('\n') ? markdown : markdown + '\n'), 'utf8')
    }
  }
}
