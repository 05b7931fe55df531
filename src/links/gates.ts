/**
 * The gates of a link-checking run: at most `concurrency` requests at once
 * over all hosts, and at most `perHost` to any one host (`host:port`), so
 * that checking a folder never floods one site. A task takes its host's
 * slot first, so that tasks waiting for a busy host hold no slot of the
 * run's.
 *
 * The gates also remember which hosts do not answer: after
 * `hostTimeoutLimit` time-outs in a row (no answer in between), the other
 * URLs of that host are not requested. Without that, the links of one
 * hanging host would pass its two slots one pair at a time, a time-out each:
 * 40 links, 20 time-outs back to back.
 */
import {Semaphore} from '../api/limiter.js'

/** Time-outs in a row after which a host is not asked again in the run. */
export const hostTimeoutLimit = 2

/** Runs tasks for URLs within both limits. */
export class HostGates {
  private readonly all: Semaphore
  private readonly hosts = new Map<string, Semaphore>()
  private readonly timeouts = new Map<string, number>()

  constructor(
    concurrency: number,
    private readonly perHost: number
  ) {
    this.all = new Semaphore(concurrency)
  }

  /** Runs `task` once `url`'s host and the run both have a free slot; frees them when it settles. */
  async run<T>(url: string, task: () => Promise<T>): Promise<T> {
    const releaseHost = await this.hostGate(url).acquire()
    try {
      const release = await this.all.acquire()
      try {
        return await task()
      } finally {
        release()
      }
    } finally {
      releaseHost()
    }
  }

  /** Notes that a request to `url`'s host timed out. */
  timedOut(url: string): void {
    const host = hostOf(url)
    this.timeouts.set(host, (this.timeouts.get(host) ?? 0) + 1)
  }

  /** Notes that `url`'s host answered: its time-outs in a row start again from none. */
  answered(url: string): void {
    this.timeouts.delete(hostOf(url))
  }

  /** The time-outs in a row of `url`'s host when they reached `hostTimeoutLimit` (it is not asked again), else undefined. */
  unresponsive(url: string): number | undefined {
    const count = this.timeouts.get(hostOf(url)) ?? 0
    return count >= hostTimeoutLimit ? count : undefined
  }

  private hostGate(url: string): Semaphore {
    const host = hostOf(url)
    let gate = this.hosts.get(host)
    if (!gate) this.hosts.set(host, (gate = new Semaphore(this.perHost)))
    return gate
  }
}

/** `host:port` of a URL, lower-cased (the whole text when it does not parse). */
export function hostOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase()
  } catch {
    return url
  }
}
