/**
 * The optional packages (the renderers: playwright-core, mermaid, MathJax;
 * the highlighter, shiki): the CLI's default
 * install has them, a library-only install (`--omit=optional`) may not.
 * They are loaded on first use, never at import time, and a missing one is
 * an error that names the package and the command that installs it.
 */

/** The optional packages and what kbsync uses each for (the messages say it). */
export const optionalPackages = {
  'playwright-core': 'to drive Chromium, which renders Mermaid diagrams',
  mermaid: 'to render Mermaid diagrams',
  shiki: "to highlight code in the preview's pages",
  'mathjax-full': 'to render math formulas as images'
} as const

/** The name of an optional package. */
export type OptionalPackage = keyof typeof optionalPackages

/** An optional package is not installed; the message names it and how to install it. */
export class MissingPackageError extends Error {
  constructor(
    readonly packageName: OptionalPackage,
    options?: {cause?: unknown}
  ) {
    super(
      `kbsync needs the optional package "${packageName}" ${optionalPackages[packageName]}, and it is not installed: ` +
        `run \`npm install ${packageName}\` (a library-only install, \`--omit=optional\`, leaves it out)`,
      options
    )
    this.name = 'MissingPackageError'
  }
}

/** Whether `error` says that `name` itself (not something it needs) cannot be found. */
function isMissing(error: unknown, name: string): boolean {
  const {code, message} = (error ?? {}) as {code?: unknown; message?: unknown}
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false
  return typeof message === 'string' && (message.includes(`'${name}'`) || message.includes(`'${name}/`))
}

/**
 * Runs `load` (an `import()` of `name`, or of a module of kbsync that
 * imports it) once it is needed; a missing `name` becomes a
 * `MissingPackageError`, any other failure is passed on as it is.
 */
export async function loadOptional<T>(name: OptionalPackage, load: () => Promise<T>): Promise<T> {
  try {
    return await load()
  } catch (error) {
    throw isMissing(error, name) ? new MissingPackageError(name, {cause: error}) : error
  }
}

/** `resolve()` (a path inside `name`), with the same error as `loadOptional` when `name` is not installed. */
export function resolveOptional(name: OptionalPackage, resolve: () => string): string {
  try {
    return resolve()
  } catch (error) {
    throw isMissing(error, name) ? new MissingPackageError(name, {cause: error}) : error
  }
}
