/**
 * Checks one target: requests it through the run's gates (at most so many
 * requests at once, and so many per host), retries a 5xx answer or a
 * failed connection with backoff, waits out a 429 as its `Retry-After`
 * asks when that is short, and looks for the fragments on the page. A
 * time-out is not retried (another attempt would cost a whole time-out
 * again), and nothing is sent to a private address (unless allowed), to a
 * host that timed out twice in a row, or once the run's budget is spent.
 */
import {STATUS_CODES} from 'node:http'
import type {Dispatcher} from 'undici'
import {backoffMs, isRetryableStatus, parseRetryAfter} from '../api/retry-policy.js'
import {missingAnchors, anchorsOf, isAnchorFragment} from './anchors.js'
import type {AddressPolicy} from '../trust/index.js'
import {hostOf, type HostGates} from './gates.js'
import {probe, type ProbeResult} from './probe.js'
import {ExchangeError, formatSeconds} from './request.js'
import type {LinkOutcome, LinkTarget} from './types.js'

/** Everything checking a target needs: the options resolved, the gates, the connection pool. */
export interface CheckContext {
  gates: HostGates
  dispatcher: Dispatcher
  /** Which addresses may be requested (every hop, before and after DNS). */
  policy: AddressPolicy
  /** The run's signal: aborted with `BudgetSpent` once its time budget is spent. */
  budget: AbortSignal
  timeoutMs: number
  retries: number
  backoffMs: number
  maxRetryAfterMs: number
  maxRedirects: number
  userAgent: string
  now: () => number
  /** Waits `ms`, or less when the budget is spent meanwhile. */
  sleep: (ms: number) => Promise<void>
}

/** Longest backoff between two attempts. */
const backoffCapMs = 10_000

/** Checks `target` and says what was found (never throws for what the network does). */
export async function checkTarget(target: LinkTarget, context: CheckContext): Promise<LinkOutcome> {
  const anchors = target.fragments.filter(isAnchorFragment)
  for (let attempt = 1; ; attempt++) {
    const mayRetry = attempt <= context.retries
    let result: ProbeResult
    try {
      result = await context.gates.run(target.url, () => attemptOnce(target.url, anchors, context))
    } catch (error) {
      if (!(error instanceof ExchangeError)) throw error
      if (mayRetry && error.retryable) {
        await context.sleep(backoffMs(attempt, context.backoffMs, backoffCapMs))
        continue
      }
      return failedOutcome(error, context.now())
    }
    if (result.status !== 429 && !(isRetryableStatus(result.status) && mayRetry))
      return outcomeOf(result, anchors, context.now())
    // A 429 or a 503 may say when to come back: a 429 that asks too much is not waited for; a 503 then backs off.
    const asked = parseRetryAfter(result.headers['retry-after'], context.now())
    if (result.status === 429 && asked !== undefined && asked > context.maxRetryAfterMs) {
      return {
        status: 'unchecked',
        httpStatus: 429,
        reason: `rate limited: the server asks to wait ${formatSeconds(asked)}, more than the ${formatSeconds(context.maxRetryAfterMs)} allowed`,
        checkedAt: context.now()
      }
    }
    if (!mayRetry)
      return {
        status: 'unchecked',
        httpStatus: 429,
        reason: `rate limited after ${attempt} attempts`,
        checkedAt: context.now()
      }
    await context.sleep(
      asked !== undefined && asked <= context.maxRetryAfterMs
        ? asked
        : backoffMs(attempt, context.backoffMs, backoffCapMs)
    )
  }
}

/**
 * One attempt at `url`, holding its gates: nothing is sent once the budget
 * is spent or the host has timed out too often; the host's time-outs in a
 * row are counted.
 */
async function attemptOnce(url: string, anchors: readonly string[], context: CheckContext): Promise<ProbeResult> {
  if (context.budget.aborted) throw new ExchangeError('the time budget was spent', 'budget')
  const timeouts = context.gates.unresponsive(url)
  if (timeouts !== undefined)
    throw new ExchangeError(
      `${hostOf(url)} did not answer ${timeouts} requests in a row within ${formatSeconds(context.timeoutMs)}, so it is not asked again this run`,
      'unresponsive'
    )
  try {
    const result = await probe(url, {
      dispatcher: context.dispatcher,
      timeoutMs: context.timeoutMs,
      userAgent: context.userAgent,
      wantPage: anchors.length > 0,
      maxRedirects: context.maxRedirects,
      policy: context.policy,
      budget: context.budget
    })
    context.gates.answered(url)
    return result
  } catch (error) {
    if (error instanceof ExchangeError && error.kind === 'timeout') context.gates.timedOut(url)
    throw error
  }
}

/** What not getting an answer means: a link not requested (private address, budget, host given up) is unchecked, else broken. */
function failedOutcome(error: ExchangeError, checkedAt: number): LinkOutcome {
  const notChecked = notCheckedOf[error.kind]
  if (notChecked) return {status: 'unchecked', notChecked, reason: error.message, checkedAt}
  return {status: 'broken', reason: error.message, checkedAt}
}

const notCheckedOf: Partial<Record<ExchangeError['kind'], NonNullable<LinkOutcome['notChecked']>>> = {
  address: 'private-address',
  budget: 'time-budget',
  unresponsive: 'host-timed-out'
}

/** The outcome of a final answer: OK (with the anchors missing from the page, if any) or broken. */
function outcomeOf(result: ProbeResult, anchors: readonly string[], checkedAt: number): LinkOutcome {
  const moved = result.movedTo !== undefined ? {movedTo: result.movedTo} : {}
  if (result.status < 200 || result.status >= 300) {
    return {
      status: 'broken',
      httpStatus: result.status,
      reason: `${result.status} ${STATUS_CODES[result.status] ?? 'answer'}`,
      checkedAt
    }
  }
  if (anchors.length === 0) return {status: 'ok', httpStatus: result.status, ...moved, checkedAt}
  // A page that is no HTML (a PDF, an image) has no anchors to look for: its fragment is the viewer's business.
  if (result.page === undefined) return {status: 'ok', httpStatus: result.status, ...moved, checkedAt}
  const missing = missingAnchors(anchors, anchorsOf(result.page))
  return {
    status: 'ok',
    httpStatus: result.status,
    ...moved,
    checkedAnchors: [...anchors],
    ...(missing.length > 0 ? {missingAnchors: missing} : {}),
    checkedAt
  }
}
