/**
 * The CLI's own errors. They live apart from `main.ts` (which maps them to
 * exit codes) so that the commands can throw them without importing the
 * entry point that imports the commands: no import cycle.
 */

/** A usage error: printed without a stack, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}
