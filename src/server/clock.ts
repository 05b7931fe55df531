/**
 * Timestamps in the platform's format (`YYYY-MM-DDThh:mm:ssZ`, second
 * resolution). Successive changes must be distinguishable by `updated_at`,
 * so a stamp never repeats: within one second it moves one second ahead.
 */
export function createClock(now: () => number = Date.now): () => string {
  let last = 0
  return () => {
    const seconds = Math.max(Math.floor(now() / 1000), last + 1)
    last = seconds
    return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')
  }
}
