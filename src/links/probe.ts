/**
 * Requests one URL the way a browser would reach it: HEAD first (no body to
 * download), GET when the server refuses HEAD (405, 403, 501, or a dropped
 * connection), redirects followed hop by hop up to a bound. A first hop that
 * is permanent (301, 308) is remembered, so the author can update the link.
 */
import {exchange, ExchangeError, type Exchange, type ExchangeOptions} from './request.js'

/** What the last hop answered, and where the URL has moved for good. */
export interface ProbeResult {
  status: number
  headers: Record<string, string | undefined>
  /** The page, when one was wanted and the answer is HTML. */
  page?: string
  /** The URL after the leading permanent redirects, when there were any. */
  movedTo?: string
}

/** How `probe` requests. */
export interface ProbeOptions extends Omit<ExchangeOptions, 'readPage'> {
  /** Fetch the page with GET (an anchor is to be found on it). */
  wantPage: boolean
  maxRedirects: number
}

/** Answers to HEAD after which GET is tried: the server refuses or does not implement HEAD. */
const headRefused = new Set([400, 403, 405, 501])
const redirects = new Set([301, 302, 303, 307, 308])
const permanent = new Set([301, 308])

/** Requests `url`, following redirects; throws an `ExchangeError` when a hop gets no answer or the redirects do not end. */
export async function probe(url: string, options: ProbeOptions): Promise<ProbeResult> {
  let current = url
  let method: 'HEAD' | 'GET' = options.wantPage ? 'GET' : 'HEAD'
  let movedTo: string | undefined
  let stillPermanent = true
  for (let hop = 0; hop <= options.maxRedirects;) {
    let answer: Exchange
    try {
      answer = await exchange(current, method, {...options, readPage: options.wantPage})
    } catch (error) {
      // Some servers reset the connection on HEAD: the same URL is asked again with GET.
      if (method === 'HEAD' && error instanceof ExchangeError && !error.timedOut) {
        method = 'GET'
        continue
      }
      throw error
    }
    if (method === 'HEAD' && headRefused.has(answer.status)) {
      method = 'GET'
      continue
    }
    const location = answer.headers.location
    if (!redirects.has(answer.status) || location === undefined)
      return {...answer, ...(movedTo !== undefined ? {movedTo} : {})}
    const next = resolveLocation(location, current)
    if (next === undefined)
      throw new ExchangeError(`redirected to \`${location}\`, which is no http(s) URL`, false, false)
    stillPermanent &&= permanent.has(answer.status)
    if (stillPermanent) movedTo = next
    current = next
    hop++
  }
  throw new ExchangeError(`more than ${options.maxRedirects} redirects`, false, false)
}

/** The absolute http(s) URL a `Location` names, read against the URL that answered it. */
function resolveLocation(location: string, base: string): string | undefined {
  try {
    const url = new URL(location, base)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined
  } catch {
    return undefined
  }
}
