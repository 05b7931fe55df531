/**
 * The CLI's one stop (`src/cli/shutdown.ts`): the first SIGINT/SIGTERM of a
 * command that stops gracefully aborts the run's signal with the request
 * and runs the close hooks (a worker pool's); a second signal, or any signal
 * for a command that does not stop gracefully, ends the process at once with
 * 130/143; past the grace the process ends anyway.
 */
import {EventEmitter} from 'node:events'
import {describe, expect, it, vi} from 'vitest'
import {Shutdown, StopRequest} from '../../src/cli/shutdown.js'
import {untilInterrupted} from '../../src/cli/args.js'

function made(graceMs = 60_000) {
  const exits: number[] = []
  const lines: string[] = []
  const shutdown = new Shutdown({exit: (code) => exits.push(code), say: (line) => lines.push(line), graceMs})
  return {shutdown, exits, lines}
}

describe('Shutdown', () => {
  it('aborts a graceful run on the first signal, with the request, and runs the close hooks once', async () => {
    const {shutdown, exits} = made()
    shutdown.graceful = true
    const closed = vi.fn()
    const failing = vi.fn(() => Promise.reject(new Error('pool gone')))
    shutdown.onStop(closed)
    shutdown.onStop(failing)
    const stopped = untilInterrupted(shutdown)
    shutdown.receive('SIGTERM')
    expect(shutdown.signal.aborted).toBe(true)
    expect(shutdown.signal.reason).toBeInstanceOf(StopRequest)
    expect((shutdown.signal.reason as StopRequest).exitCode).toBe(143)
    expect(await stopped).toBe('SIGTERM')
    expect(closed).toHaveBeenCalledTimes(1)
    expect(failing).toHaveBeenCalledTimes(1)
    expect(exits).toEqual([])
    // A hook registered after the stop runs at once; a forgotten one does not.
    const late = vi.fn()
    shutdown.onStop(late)
    expect(late).toHaveBeenCalledTimes(1)
  })

  it('exits at once on a second signal', () => {
    const {shutdown, exits, lines} = made()
    shutdown.graceful = true
    shutdown.receive('SIGINT')
    shutdown.receive('SIGINT')
    expect(exits).toEqual([130])
    expect(lines.at(-1)).toContain('again')
  })

  it('ends a command that does not stop gracefully at once, as without a handler', () => {
    const {shutdown, exits} = made()
    const forgotten = vi.fn()
    shutdown.onStop(forgotten)()
    shutdown.receive('SIGTERM')
    expect(exits).toEqual([143])
    expect(shutdown.signal.aborted).toBe(false)
    expect(forgotten).not.toHaveBeenCalled()
  })

  it('exits once the grace is over when the run does not stop', async () => {
    const {shutdown, exits} = made(30)
    shutdown.graceful = true
    shutdown.receive('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 80))
    expect(exits).toEqual([143])
  })

  it('listens for SIGINT and SIGTERM, and stops listening', () => {
    const {shutdown, exits} = made()
    const target = new EventEmitter()
    const off = shutdown.listen(target)
    target.emit('SIGINT')
    expect(exits).toEqual([130])
    off()
    expect(target.listenerCount('SIGINT') + target.listenerCount('SIGTERM')).toBe(0)
  })
})
