/**
 * Telling the user that the rate limit holds the run. A wait for the
 * platform's reset can last minutes; without a line it looks like a hang in
 * CI. Requests in flight all hit the same reset, so one line is printed per
 * reset, not one per request.
 */
import type {ClientEvent} from '../api/index.js'

/** Waits shorter than this pass without a line (`--verbose` still shows each). */
export const noticeAfterMs = 5000

/**
 * An event handler that calls `say` once for each rate-limit wait of at least
 * `noticeAfterMs` that ends later than the last one announced.
 */
export function rateLimitNotices(
  say: (line: string) => void,
  now: () => number = Date.now
): (event: ClientEvent) => void {
  let announcedUntil = 0
  return (event) => {
    const rateLimited = event.type === 'rate-limit-wait' || (event.type === 'retry' && event.status === 429)
    if (!rateLimited || event.waitMs === undefined || event.waitMs < noticeAfterMs) return
    const until = now() + event.waitMs
    // Another request's line already covers a reset this close.
    if (until <= announcedUntil + 1000) return
    announcedUntil = until
    say(`rate limit reached: waiting ${Math.ceil(event.waitMs / 1000)} s for the server's next interval`)
  }
}
