/**
 * A local write that failed for a reason of the machine, not of the
 * folder: the disk is full (ENOSPC), the quota is used up (EDQUOT), the file
 * system is read-only (EROFS), the device fails (EIO), or kbsync may not
 * write there (EACCES, EPERM). Any later write of the same run would fail
 * the same way, so it is a fault of the whole run, not of the document
 * being written: the run stops starting writes to the platform and ends
 * with one message that names the file (see `src/cli/output/local-fault.ts`
 * for how it is told). Every write kbsync makes in the folder goes through
 * `inside.ts` and the state's journal, which turn such an error into this one.
 */
import path from 'node:path'

/** The error codes of a local write that no retry of the same run would fix. */
const machineCodes: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EIO: 'the device reported an input/output error',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted'
}

/** A write of `file` (relative to the synced folder) that failed for a reason of the machine. */
export class LocalWriteError extends Error {
  override name = 'LocalWriteError'
  constructor(
    /** The file being written, relative to the synced folder (with `/`). */
    readonly file: string,
    /** The system error code (`ENOSPC`...). */
    readonly code: string,
    options?: {cause?: unknown}
  ) {
    super(`could not write ${file}: ${machineCodes[code] ?? code} (${code})`, options)
  }
}

/** Whether `error` is a system error of a local write that no retry of this run would fix. */
export function isMachineWriteError(error: unknown): error is Error & {code: string} {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return typeof code === 'string' && Object.hasOwn(machineCodes, code)
}

/**
 * `error` as a `LocalWriteError` naming `file` (absolute, or relative to
 * `root`) when it is a machine's write failure; otherwise `error` itself.
 */
export function asLocalWriteError(error: unknown, root: string, file: string): unknown {
  if (error instanceof LocalWriteError || !isMachineWriteError(error)) return error
  const relative = path.relative(root, path.resolve(root, file))
  const shown = relative.startsWith('..') || path.isAbsolute(relative) ? file : relative
  return new LocalWriteError(shown.split(path.sep).join('/'), error.code!, {cause: error})
}

/** Runs the write `write` of `file` (relative to `root`): a machine's failure of it comes out as a `LocalWriteError` naming the file. */
export function writingFile<T>(root: string, file: string, write: () => T): T {
  try {
    return write()
  } catch (error) {
    throw asLocalWriteError(error, root, file)
  }
}
