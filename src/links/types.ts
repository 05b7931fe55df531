/**
 * The plain data the link checker passes between its steps: where a URL is
 * used, what checking it found, and the options of a run.
 */
import type {LookupFunction} from 'node:net'
import type {AddressPolicy} from '../trust/network-address.js'

/** One place a document uses an external URL. */
export interface LinkUse {
  /** The URL as written (http or https), fragment included. */
  url: string
  /** Path of the document, relative to the folder, with `/`. */
  file: string
  /** 1-based line and column where the URL is written, when known. */
  line?: number
  column?: number
  /** A link (or an attachment) the reader follows, or an image, video or diagram the page loads. */
  kind: 'link' | 'image'
}

/** A URL to request once, whatever number of documents use it. */
export interface LinkTarget {
  /** The URL without its fragment: what is requested. */
  url: string
  /** Fragments some use points at (`#install`), decoded; checked against the page's ids. */
  fragments: string[]
  uses: LinkUse[]
}

/** What requesting a URL found. */
export type LinkStatus =
  /** Answered 2xx (after redirects). */
  | 'ok'
  /** Answered 4xx or 5xx (after retries), failed to connect, or timed out. */
  | 'broken'
  /** Not known: the server asked to wait longer than allowed (429), or the URL was not requested (see `notChecked`). */
  | 'unchecked'

/** The outcome for one target, as checked now or read from the cache. */
export interface LinkOutcome {
  status: LinkStatus
  /** The last HTTP status, when there was an answer. */
  httpStatus?: number
  /** Why it is broken or unchecked, in words (`404 Not Found`, `timed out after 10 s`). */
  reason?: string
  /** The URL a permanent redirect (301, 308) leads to, when the first hop was one: the link may be updated. */
  movedTo?: string
  /** The fragments of the target not found on the page (by id or `<a name>`). */
  missingAnchors?: string[]
  /** The fragments the page was searched for (cached with the outcome). */
  checkedAnchors?: string[]
  /** Epoch milliseconds of the check. */
  checkedAt: number
  /** Read from the cache, no request sent. */
  cached?: boolean
  /**
   * Why an unchecked URL was not (fully) requested: its host, or a redirect
   * hop's, is a private address; the run's time budget was spent; its host
   * timed out on other URLs and is not asked again.
   */
  notChecked?: 'private-address' | 'time-budget' | 'host-timed-out'
}

/** How a run checks links. */
export interface LinkCheckOptions {
  /** Requests at once, over all hosts (default 8). */
  concurrency?: number
  /** Requests at once to one host (`host:port`; default 2). */
  perHost?: number
  /** Time-out of one attempt (its redirects and a GET after a refused HEAD included), in milliseconds (default 10,000); a time-out is not retried. */
  timeoutMs?: number
  /** Extra attempts after a 5xx answer or a failed connection (default 2). */
  retries?: number
  /** First backoff wait in milliseconds (doubled per attempt, full jitter; default 500). */
  backoffMs?: number
  /** Longest `Retry-After` a 429 may ask for, in milliseconds, before the link is reported unchecked (default 60,000). */
  maxRetryAfterMs?: number
  /** Redirects followed at most (default 10). */
  maxRedirects?: number
  /** URL patterns not checked: `*` matches anything; a pattern without `*` matches URLs that start with it. */
  exclude?: readonly string[]
  /** How long an OK result is trusted, in milliseconds (default 24 h); broken ones are checked again every run. */
  okTtlMs?: number
  /** Read and write no cache. */
  noCache?: boolean
  /** Broken links are warnings, not errors. */
  warn?: boolean
  /** The clock (epoch milliseconds); injectable for tests. */
  now?: () => number
  /** Waits `ms` (injectable for tests; default a timer). */
  sleep?: (ms: number) => Promise<void>
  /** The `User-Agent` sent (some sites refuse requests without one). */
  userAgent?: string
  /**
   * Request loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7) and
   * CGNAT (100.64/10) addresses too: intranet docs (`--allow-private`).
   * Link-local (cloud metadata), unspecified, multicast, broadcast and
   * reserved addresses are never requested.
   */
  allowPrivate?: boolean
  /** Which addresses may be requested; replaces the policy `allowPrivate` picks (tests). */
  addressPolicy?: AddressPolicy
  /** Resolves host names (default `dns.lookup`); what it answers is checked against the policy (tests). */
  lookup?: LookupFunction
  /** Time budget of the whole run, in milliseconds (default 120,000): URLs not settled by then are unchecked, and the run ends. */
  budgetMs?: number
  /** Called as each URL is settled (checked or read from the cache), with how many of how many are done: progress, `--verbose` lines. */
  onChecked?: (url: string, outcome: LinkOutcome, done: number, total: number) => void
}
