/**
 * Small parsers and waits shared by the long-running commands.
 */
import {UsageError} from './errors.js'
import {StopRequest, untilAborted, type Shutdown, type StopSignalName} from './shutdown.js'

/** Parses a `--port` value (0 picks a free port). */
export function parsePort(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined
  const port = Number(value)
  if (!/^\d+$/.test(value) || port > 65535)
    throw new UsageError(`--port must be a number from 0 to 65535, not '${value}'`)
  return port
}

/** Parses a non-negative number option such as `--latency` or `--fail-rate`. */
export function parseNumber(name: string, value: unknown, max = Number.POSITIVE_INFINITY): number | undefined {
  if (typeof value !== 'string') return undefined
  const number = Number(value)
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > max) {
    throw new UsageError(`--${name} must be a number from 0 to ${max}, not '${value}'`)
  }
  return number
}

/**
 * Resolves with the signal's name when the run is stopped: by its
 * `shutdown` (the CLI's one stop, `shutdown.ts`), else (the CLI run
 * in-process) when the process receives SIGINT or SIGTERM.
 */
export function untilInterrupted(shutdown?: Shutdown): Promise<StopSignalName> {
  if (shutdown) {
    const named = () => (shutdown.signal.reason instanceof StopRequest ? shutdown.signal.reason.received : 'SIGINT')
    return untilAborted(shutdown.signal).then(named)
  }
  return new Promise<StopSignalName>((resolve) => {
    const stop = (name: StopSignalName) => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      resolve(name)
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
}

/** What to throw for a failed listen on `port`: a usage error when the port is taken, else `error` itself. */
export function listenError(error: unknown, port: number): unknown {
  return (error as {code?: string}).code === 'EADDRINUSE'
    ? new UsageError(`port ${port} is in use; pick another with --port (0 picks a free one)`)
    : error
}
