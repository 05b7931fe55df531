/**
 * Fault injection: latency on every request and, with probability
 * `failRate`, one of the failure modes. A '500' or 'drop-before' never
 * applies the write; 'drop-after' applies it and loses the answer, the case
 * that makes a careless client create duplicates.
 */
import {seededRandom} from './random.js'

/** How a request fails. */
export type FailMode = '500' | 'drop-before' | 'drop-after'

/** Fault settings. */
export interface FaultOptions {
  failRate: number
  failModes: FailMode[]
  latencyMs: number
}

/** Picks the fate of each request from a seeded sequence. */
export function createFaults(initial: FaultOptions, seed: number) {
  const options = {...initial}
  const random = seededRandom(seed)
  return {
    options,
    set(next: Partial<FaultOptions>): void {
      Object.assign(options, Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined)))
    },
    /** The failure for the next request, or undefined. */
    next(): FailMode | undefined {
      if (options.failRate <= 0 || options.failModes.length === 0) return undefined
      if (random() >= options.failRate) return undefined
      return options.failModes[Math.floor(random() * options.failModes.length)]
    }
  }
}
