/**
 * A link-checking run: the targets of a folder's documents checked (each
 * URL once, through the cache unless told not to), their outcomes turned
 * into diagnostics at every place they are used, and the counts.
 */
import {setMaxListeners} from 'node:events'
import {setTimeout as delay} from 'node:timers/promises'
import {Agent} from 'undici'
import type {Diagnostic} from '../local/index.js'
import {kbsyncVersion} from '../version.js'
import {LinkCache, linkCacheFile} from './cache.js'
import {checkTarget, type CheckContext} from './check.js'
import {HostGates} from './gates.js'
import {addressPolicy, guardedConnector} from '../trust/index.js'
import {budgetDiagnostics, diagnosticsOf} from './report.js'
import {BudgetSpent} from './request.js'
import {groupTargets} from './targets.js'
import type {LinkCheckOptions, LinkOutcome, LinkTarget, LinkUse} from './types.js'

/** The defaults of `LinkCheckOptions`. */
export const linkCheckDefaults = {
  concurrency: 8,
  perHost: 2,
  timeoutMs: 10_000,
  retries: 2,
  backoffMs: 500,
  maxRetryAfterMs: 60_000,
  maxRedirects: 10,
  okTtlMs: 24 * 3600 * 1000,
  budgetMs: 120_000
}

/** One checked URL, for `--json`. */
export interface CheckedLink {
  url: string
  outcome: LinkOutcome
  uses: LinkUse[]
}

/** How many of what a run found. */
export interface LinkCheckCounts {
  /** Places that use an external URL, excluded ones too. */
  uses: number
  /** Distinct URLs (without fragment) to check. */
  urls: number
  /** Of those, answered from the cache without a request. */
  cached: number
  ok: number
  broken: number
  unchecked: number
  /** Targets whose page lacks an anchor a use points at. */
  anchorsMissing: number
  /** Targets that moved permanently. */
  moved: number
  /** Uses of URLs excluded by the config. */
  excluded: number
  /** Of the unchecked, URLs not requested because they (or a redirect hop) are private addresses. */
  privateAddress: number
  /** Of the unchecked, URLs not settled when the time budget was spent. */
  overBudget: number
}

/** What `checkLinks` returns. */
export interface LinkCheckResult {
  diagnostics: Diagnostic[]
  links: CheckedLink[]
  counts: LinkCheckCounts
}

/**
 * Checks every URL of `uses` (see `LinkCheckOptions`), reading and updating
 * the cache of the folder `dir` unless `noCache`. Never throws for what a
 * site answers; a broken link is a diagnostic. Ends within the time budget:
 * what is still running then is cut off and reported as not checked.
 */
export async function checkLinks(
  uses: readonly LinkUse[],
  dir: string,
  options: LinkCheckOptions = {}
): Promise<LinkCheckResult> {
  const settings = {...linkCheckDefaults, ...definedOf(options)}
  const now = options.now ?? Date.now
  const cache = options.noCache ? LinkCache.none() : await LinkCache.load(dir)
  const {targets, excluded} = groupTargets(uses, options.exclude ?? [])
  const budget = new AbortController()
  // Every waiting URL listens to the budget: as many listeners as URLs is no leak.
  setMaxListeners(0, budget.signal)
  const budgetTimer = setTimeout(() => budget.abort(new BudgetSpent()), settings.budgetMs)
  const context = contextOf(settings, options, budget.signal)
  let outcomes: LinkOutcome[]
  let done = 0
  const settle = async (target: LinkTarget): Promise<LinkOutcome> => {
    const outcome = cache.fresh(target, now(), settings.okTtlMs) ?? (await checkTarget(target, context))
    options.onChecked?.(target.url, outcome, ++done, targets.length)
    return outcome
  }
  try {
    outcomes = await Promise.all(targets.map(settle))
  } finally {
    clearTimeout(budgetTimer)
    // Requests cut off by the budget may leave sockets behind: they are closed, not waited for.
    await (budget.signal.aborted ? context.dispatcher.destroy() : context.dispatcher.close())
  }
  targets.forEach((target, index) => {
    if (!outcomes[index]!.cached) cache.set(target.url, outcomes[index]!)
  })
  const unsaved = saveCache(cache, now(), settings.okTtlMs)
  const links = targets.map((target, index) => ({url: target.url, outcome: outcomes[index]!, uses: target.uses}))
  return {
    diagnostics: [
      ...targets.flatMap((target, index) => diagnosticsOf(target, outcomes[index]!, options.warn === true)),
      ...budgetDiagnostics(links, settings.budgetMs),
      ...unsaved
    ],
    links,
    counts: countsOf(uses.length, targets, outcomes, excluded.length)
  }
}

/** The context of a run's checks: its gates, its guarded connection pool, and a sleep the budget cuts short. */
function contextOf(settings: typeof linkCheckDefaults, options: LinkCheckOptions, budget: AbortSignal): CheckContext {
  const policy = options.addressPolicy ?? addressPolicy({allowPrivate: options.allowPrivate === true})
  const dispatcher = new Agent({
    connections: settings.perHost,
    keepAliveTimeout: 4_000,
    headersTimeout: 0,
    bodyTimeout: 0,
    // Every connection, redirects included, goes only where the policy allows, checked on the address connected to.
    connect: guardedConnector(policy, {
      timeout: settings.timeoutMs,
      ...(options.lookup ? {lookup: options.lookup} : {})
    })
  })
  const sleep = options.sleep ?? ((ms: number) => delay(ms, undefined, {signal: budget}).catch(() => undefined))
  return {
    gates: new HostGates(settings.concurrency, settings.perHost),
    dispatcher,
    policy,
    budget,
    timeoutMs: settings.timeoutMs,
    retries: settings.retries,
    backoffMs: settings.backoffMs,
    maxRetryAfterMs: settings.maxRetryAfterMs,
    maxRedirects: settings.maxRedirects,
    userAgent: options.userAgent ?? `kbsync/${kbsyncVersion} (link check)`,
    now: options.now ?? Date.now,
    sleep: (ms) => cutShort(sleep(ms), budget)
  }
}

/** Resolves when `wait` settles or `signal` aborts, whichever comes first. */
function cutShort(wait: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, {once: true})
    wait.then(done, done)
  })
}

/** Saves the cache; a cache that cannot be written is a warning, never a failed check (it only spares requests). */
function saveCache(cache: LinkCache, now: number, ttlMs: number): Diagnostic[] {
  try {
    cache.save(now, ttlMs)
    return []
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    return [
      {
        severity: 'warning',
        message: `The link cache ${linkCacheFile} was not written (${reason}): the next run checks every URL again`,
        hint: 'Make .kbsync a writable folder of the folder, or pass --no-cache',
        rule: 'link-cache-unwritten'
      }
    ]
  }
}

/** The options that are set (an explicit undefined must not hide a default). */
function definedOf(options: LinkCheckOptions): Partial<typeof linkCheckDefaults> {
  return Object.fromEntries(
    Object.entries(options).filter(([key, value]) => value !== undefined && key in linkCheckDefaults)
  )
}

function countsOf(
  uses: number,
  targets: readonly LinkTarget[],
  outcomes: readonly LinkOutcome[],
  excluded: number
): LinkCheckCounts {
  const count = (test: (outcome: LinkOutcome) => boolean) => outcomes.filter(test).length
  return {
    uses,
    urls: targets.length,
    cached: count((o) => o.cached === true),
    ok: count((o) => o.status === 'ok'),
    broken: count((o) => o.status === 'broken'),
    unchecked: count((o) => o.status === 'unchecked'),
    anchorsMissing: count((o) => (o.missingAnchors?.length ?? 0) > 0),
    moved: count((o) => o.status === 'ok' && o.movedTo !== undefined),
    excluded,
    privateAddress: count((o) => o.notChecked === 'private-address'),
    overBudget: count((o) => o.notChecked === 'time-budget')
  }
}
