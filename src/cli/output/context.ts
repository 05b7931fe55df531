/** The reporter of a command run, from its context and its `--json`/`--quiet`/`--verbose` flags. */
import type {CommandContext} from '../command.js'
import {createReporter, type Reporter} from './reporter.js'

/**
 * The reporter for `context`: `--json`, `--quiet` and `--verbose` from the
 * parsed flags; `dir` for annotation paths; `secrets` masked in every line.
 */
export function reporterFor(
  context: Pick<CommandContext, 'stdout' | 'stderr' | 'env'> & {values?: CommandContext['values']},
  extra: {dir?: string; secrets?: Array<string | undefined>} = {}
): Reporter {
  const values = context.values ?? {}
  return createReporter({
    stdout: context.stdout,
    stderr: context.stderr,
    env: context.env,
    json: values.json === true,
    quiet: values.quiet === true,
    verbose: values.verbose === true,
    ...(extra.dir ? {dir: extra.dir} : {}),
    secrets: extra.secrets ?? [context.env.KBSYNC_TOKEN, context.env.KBSYNC_SECURITY_KEY]
  })
}
