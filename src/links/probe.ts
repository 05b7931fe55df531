/**
 * Requests one URL the way a browser would reach it: HEAD first (no body to
 * download), GET when the server refuses HEAD (405, 403, 501, or a dropped
 * connection), redirects followed hop by hop up to a bound. A first hop that
 * is permanent (301, 308) is remembered, so the author can update the link.
 *
 * One probe is one attempt: its time-out covers every hop and the GET after
 * a refused HEAD, so an attempt never takes longer than `timeoutMs`. Every
 * hop's host is checked against the address policy before it is requested
 * (IP literals and `localhost` names here, names at connect time by the
 * dispatcher's guarded connector), so a redirect into the local network is
 * refused at that hop.
 */
import {hostRange, type AddressPolicy} from '../trust/index.js'
import {exchange, ExchangeError, privateAddressReason, type Exchange, type ExchangeOptions} from './request.js'

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
export interface ProbeOptions extends Omit<ExchangeOptions, 'readPage' | 'signal'> {
  /** Fetch the page with GET (an anchor is to be found on it). */
  wantPage: boolean
  maxRedirects: number
  /** Which addresses may be requested. */
  policy: AddressPolicy
  /** The run's signal: aborted with `BudgetSpent` once its time budget is spent. */
  budget?: AbortSignal
}

/** Answers to HEAD after which GET is tried: the server refuses or does not implement HEAD. */
const headRefused = new Set([400, 403, 405, 501])
const redirects = new Set([301, 302, 303, 307, 308])
const permanent = new Set([301, 308])

/** Requests `url`, following redirects, within one time-out; throws an `ExchangeError` when a hop gets no answer or may not be asked. */
export async function probe(url: string, options: ProbeOptions): Promise<ProbeResult> {
  const deadline = new AbortController()
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs)
  const signal = options.budget ? AbortSignal.any([deadline.signal, options.budget]) : deadline.signal
  try {
    return await follow(url, {...options, signal})
  } finally {
    clearTimeout(timer)
  }
}

async function follow(url: string, options: ProbeOptions & {signal: AbortSignal}): Promise<ProbeResult> {
  let current = url
  let method: 'HEAD' | 'GET' = options.wantPage ? 'GET' : 'HEAD'
  let movedTo: string | undefined
  let stillPermanent = true
  for (let hop = 0; hop <= options.maxRedirects;) {
    refuseHost(current, hop, options.policy)
    let answer: Exchange
    try {
      answer = await exchange(current, method, {...options, readPage: options.wantPage})
    } catch (error) {
      // Some servers reset the connection on HEAD: the same URL is asked again with GET.
      if (method === 'HEAD' && error instanceof ExchangeError && error.kind === 'network') {
        method = 'GET'
        continue
      }
      if (hop > 0 && error instanceof ExchangeError && error.kind === 'address')
        throw new ExchangeError(`redirected to \`${current}\`: ${error.message}`, 'address')
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
    if (next === undefined) throw new ExchangeError(`redirected to \`${location}\`, which is no http(s) URL`, 'answer')
    stillPermanent &&= permanent.has(answer.status)
    if (stillPermanent) movedTo = next
    current = next
    hop++
  }
  throw new ExchangeError(`more than ${options.maxRedirects} redirects`, 'answer')
}

/** Throws when the host of `url` is an address (or a `localhost` name) the policy refuses. */
function refuseHost(url: string, hop: number, policy: AddressPolicy): void {
  let host: string
  try {
    host = new URL(url).hostname
  } catch {
    return // No URL: the exchange says so, as a broken link.
  }
  const range = hostRange(host, policy)
  if (range === undefined) return
  const bare = host.replace(/^\[(.*)\]$/, '$1')
  const reason = privateAddressReason(bare, bare, range)
  throw new ExchangeError(hop > 0 ? `redirected to \`${url}\`: ${reason}` : reason, 'address')
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
