/**
 * The one way a run stops early: SIGINT (Ctrl-C) or SIGTERM (a CI job
 * cancelled). The command runner owns one `Shutdown` per process; the first
 * signal aborts its `signal`, which the engine takes as `signal` (queued work
 * does not start, requests in flight are cut off, long loops yield and stop,
 * what completed is recorded, connections close), and the process exits with
 * 130 or 143. A command that does not stop by the signal ends at once, as
 * it would without a handler; so does any command on a second signal, or
 * one that has not stopped `graceMs` after the first.
 */
import {exitCodes} from './exit-codes.js'

/** The signals a run stops on, and their exit codes (128 + the signal's number, as a shell reports them). */
export const stopSignals = {SIGINT: exitCodes.interrupted, SIGTERM: exitCodes.terminated} as const

/** A signal a run stops on. */
export type StopSignalName = keyof typeof stopSignals

/** The reason a run's signal is aborted with: the signal the process received. */
export class StopRequest extends Error {
  constructor(readonly received: StopSignalName) {
    super(`stopped by ${received}`)
    this.name = 'StopRequest'
  }

  /** The exit code of a run stopped so. */
  get exitCode(): number {
    return stopSignals[this.received]
  }
}

/** Where signals come from: the process, or a test's emitter. */
export interface SignalSource {
  on(name: StopSignalName, listener: () => void): unknown
  off(name: StopSignalName, listener: () => void): unknown
}

/** What a `Shutdown` does beyond aborting: leave the process, tell people. */
export interface ShutdownHooks {
  /** Ends the process with `code` (default `process.exit`). */
  exit?: (code: number) => void
  /** Writes one line for people (default: nothing). */
  say?: (line: string) => void
  /** How long a graceful stop may take before the process exits anyway (default 2500 ms). */
  graceMs?: number
}

/** The stop of one CLI run (see the module's comment). */
export class Shutdown {
  /** Aborted with a `StopRequest` on the first signal of a command that stops gracefully. */
  readonly signal: AbortSignal
  /** Whether the running command stops by `signal` (else a signal ends the process at once). */
  graceful = false
  private readonly controller = new AbortController()
  private readonly closers = new Set<() => unknown>()
  private readonly exit: (code: number) => void
  private readonly say: (line: string) => void
  private readonly graceMs: number

  constructor(hooks: ShutdownHooks = {}) {
    this.signal = this.controller.signal
    this.exit = hooks.exit ?? ((code) => process.exit(code))
    this.say = hooks.say ?? (() => undefined)
    this.graceMs = hooks.graceMs ?? 2500
  }

  /**
   * Runs `close` on the first signal (a pool of workers terminated, a server
   * closed); returns the function that forgets it again. A hook that throws
   * or rejects stops nothing else.
   */
  onStop(close: () => unknown): () => void {
    if (this.signal.aborted) void settle(close)
    else this.closers.add(close)
    return () => this.closers.delete(close)
  }

  /** The process received `name`: stops the run, or ends the process (a second signal, a command that does not stop by the signal). */
  receive(name: StopSignalName): void {
    const code = stopSignals[name]
    if (!this.graceful || this.signal.aborted) {
      if (this.signal.aborted) this.say(`kbsync: ${name} again: exiting at once`)
      this.exit(code)
      return
    }
    this.say(`kbsync: ${name}: stopping (the state is saved as each step lands; ${name} again exits at once)`)
    this.controller.abort(new StopRequest(name))
    for (const close of this.closers) void settle(close)
    this.closers.clear()
    // Work that never yields cannot be stopped from here: past the grace, the process goes as it would without a handler.
    const late = setTimeout(() => {
      this.say(`kbsync: not stopped within ${this.graceMs / 1000} s: exiting now`)
      this.exit(code)
    }, this.graceMs)
    late.unref()
  }

  /** Listens for SIGINT and SIGTERM on `process`; returns the function that stops listening. */
  listen(target: SignalSource = process): () => void {
    const handlers = (Object.keys(stopSignals) as StopSignalName[]).map((name) => {
      const handler = () => this.receive(name)
      target.on(name, handler)
      return () => target.off(name, handler)
    })
    return () => {
      for (const off of handlers) off()
    }
  }
}

/** Calls `close`, swallowing what it throws or rejects with. */
async function settle(close: () => unknown): Promise<void> {
  try {
    await close()
  } catch {
    // A hook's failure must not keep the others from running, nor crash the stop.
  }
}

/** Resolves when `signal` is aborted (at once when it already is); never, without one. */
export function untilAborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    if (!signal) return
    if (signal.aborted) resolve()
    else signal.addEventListener('abort', () => resolve(), {once: true})
  })
}
