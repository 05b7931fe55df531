/**
 * Timestamps in the platform's format (`YYYY-MM-DDThh:mm:ssZ`, second
 * resolution). An item's successive changes must be distinguishable by its
 * `updated_at`, so a change within the second of the item's previous one is
 * stamped one second after it. Only that item moves ahead of the clock, and
 * only while it is edited faster than once a second; a clock shared by all
 * items ran ahead by a second per write and went back after a restart.
 */

/** `ms` (default: now) in the platform's format. */
export function stamp(ms: number = Date.now()): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/** The stamp of a change made at `now` to an item last stamped `previous`: `now`, unless that is not later. */
export function changeStamp(previous: string | undefined, now: string): string {
  if (previous === undefined || now > previous) return now
  const last = Date.parse(previous)
  return Number.isNaN(last) ? now : stamp(last + 1000)
}
