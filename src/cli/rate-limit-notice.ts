/**
 * Telling the user that the rate limit holds the run. A wait for the
 * platform's reset can last minutes; without a line it looks like a hang in
 * CI. Requests in flight all hit the same reset, and near the limit the
 * requests spaced out wait a little longer each, so one line is printed per
 * wait said, not one per request.
 */
import type {ClientEvent} from '../api/index.js'

/** Waits shorter than this pass without a line (`--verbose` still shows each). */
export const noticeAfterMs = 5000

/** How much later than the wait announced a wait must end to be said while that one lasts. */
const laterByMs = 60_000

/**
 * An event handler that calls `say` for a rate-limit wait of at least
 * `noticeAfterMs` that starts after the last one announced ended, or that
 * ends more than `laterByMs` after it.
 */
export function rateLimitNotices(
  say: (line: string) => void,
  now: () => number = Date.now
): (event: ClientEvent) => void {
  let announcedUntil = 0
  return (event) => {
    const rateLimited = event.type === 'rate-limit-wait' || (event.type === 'retry' && event.status === 429)
    if (!rateLimited || event.waitMs === undefined || event.waitMs < noticeAfterMs) return
    const at = now()
    const until = at + event.waitMs
    // A line said already covers the waits that start before it ends: those of the other requests held by the same
    // reset, and those of the requests the limiter spaces out until it (each a little longer than the one before:
    // a line apiece made one a second), unless one ends much later.
    if (until <= announcedUntil + 1000 || (at < announcedUntil && until <= announcedUntil + laterByMs)) return
    announcedUntil = until
    say(`rate limit reached: waiting ${Math.ceil(event.waitMs / 1000)} s for the server's next interval`)
  }
}
