/**
 * The gates of a link-checking run: at most `concurrency` requests at once
 * over all hosts, and at most `perHost` to any one host (`host:port`), so
 * that checking a folder never floods one site. A task takes its host's
 * slot first, so that tasks waiting for a busy host hold no slot of the
 * run's.
 */
import {Semaphore} from '../api/limiter.js'

/** Runs tasks for URLs within both limits. */
export class HostGates {
  private readonly all: Semaphore
  private readonly hosts = new Map<string, Semaphore>()

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

  private hostGate(url: string): Semaphore {
    const host = hostOf(url)
    let gate = this.hosts.get(host)
    if (!gate) this.hosts.set(host, (gate = new Semaphore(this.perHost)))
    return gate
  }
}

/** `host:port` of a URL, lower-cased (the whole text when it does not parse). */
function hostOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase()
  } catch {
    return url
  }
}
