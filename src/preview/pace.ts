/**
 * The pace of the preview's background reading (every body of the folder,
 * after the server already answers): it works in slices of a few
 * milliseconds and yields between them, pauses while a page is being built
 * (a reader waiting on a page comes first), and says how far it got.
 */
import {setImmediate as nextTurn, setTimeout as sleep} from 'node:timers/promises'

/** How far the background reading got: `done` of `total` documents read. */
export interface Progress {
  done: number
  total: number
}

/** Runs the background reading at the pace of the requests. */
export class BackgroundPace {
  #progress: Progress = {done: 0, total: 0}
  #building = 0
  #waiting: Array<() => void> = []
  #sliceStarted = performance.now()
  #lastReport = -Infinity
  #stopped = false

  /**
   * @param report hears the progress, at most every `reportMs` (and always its end)
   * @param sliceMs synchronous work between two yields
   */
  constructor(
    private readonly report: (progress: Progress) => void,
    private readonly sliceMs = 8,
    private readonly reportMs = 200
  ) {}

  /** Whether the reading was stopped (the preview closes). */
  get stopped(): boolean {
    return this.#stopped
  }

  /** Stops the reading at its next step (it rejects there), so closing the preview does not wait for it. */
  stop(): void {
    this.#stopped = true
    for (const wake of this.#waiting.splice(0)) wake()
  }

  /** How far the reading got. */
  get progress(): Progress {
    return {...this.#progress}
  }

  /**
   * The reading's step (`onBodyRead`): records the progress; after a slice of work, or while a page is being
   * built, gives the event loop back (requests are answered) and waits until no page is being built.
   */
  readonly step = async (done: number, total: number): Promise<void> => {
    if (this.#stopped) throw new Error('The preview was closed')
    this.#progress = {done, total}
    const now = performance.now()
    if (done === total || now - this.#lastReport >= this.reportMs) {
      this.#lastReport = now
      this.report(this.progress)
    }
    if (this.#building === 0 && now - this.#sliceStarted < this.sliceMs) return
    await nextTurn()
    await this.#whileBuilding()
    this.#sliceStarted = performance.now()
  }

  /** Waits until no page is being built (or the reading was stopped). */
  async #whileBuilding(): Promise<void> {
    while (this.#building > 0 && !this.#stopped) await new Promise<void>((resolve) => this.#waiting.push(resolve))
  }

  /**
   * Resolves after `ms`, once no page is being built: the reading starts there, so the page a browser asks for
   * right after the start is built first, with the machine to itself.
   */
  async start(ms: number): Promise<void> {
    await sleep(ms)
    await this.#whileBuilding()
  }

  /** Runs `work` (building a page a reader waits for) with the reading paused until it is done. */
  async foreground<T>(work: () => Promise<T>): Promise<T> {
    this.#building++
    try {
      return await work()
    } finally {
      if (--this.#building === 0) for (const wake of this.#waiting.splice(0)) wake()
    }
  }
}
