/**
 * Small parsers and waits shared by the long-running commands.
 */
import {UsageError} from './errors.js'

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

/** Resolves when the process receives SIGINT or SIGTERM. */
export function untilInterrupted(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      resolve()
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
