/**
 * A link-checking run: the targets of a folder's documents checked (each
 * URL once, through the cache unless told not to), their outcomes turned
 * into diagnostics at every place they are used, and the counts.
 */
import {setTimeout as delay} from 'node:timers/promises'
import {Agent} from 'undici'
import type {Diagnostic} from '../local/index.js'
import {kbsyncVersion} from '../version.js'
import {LinkCache, linkCacheFile} from './cache.js'
import {checkTarget, type CheckContext} from './check.js'
import {HostGates} from './gates.js'
import {diagnosticsOf} from './report.js'
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
  okTtlMs: 24 * 3600 * 1000
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
 * site answers; a broken link is a diagnostic.
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
  const dispatcher = new Agent({
    connections: settings.perHost,
    keepAliveTimeout: 4_000,
    headersTimeout: 0,
    bodyTimeout: 0
  })
  const context: CheckContext = {
    gates: new HostGates(settings.concurrency, settings.perHost),
    dispatcher,
    timeoutMs: settings.timeoutMs,
    retries: settings.retries,
    backoffMs: settings.backoffMs,
    maxRetryAfterMs: settings.maxRetryAfterMs,
    maxRedirects: settings.maxRedirects,
    userAgent: options.userAgent ?? `kbsync/${kbsyncVersion} (link check)`,
    now,
    sleep: options.sleep ?? ((ms) => delay(ms))
  }
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
    await dispatcher.close()
  }
  targets.forEach((target, index) => {
    if (!outcomes[index]!.cached) cache.set(target.url, outcomes[index]!)
  })
  const unsaved = saveCache(cache, now(), settings.okTtlMs)
  const links = targets.map((target, index) => ({url: target.url, outcome: outcomes[index]!, uses: target.uses}))
  return {
    diagnostics: [
      ...targets.flatMap((target, index) => diagnosticsOf(target, outcomes[index]!, options.warn === true)),
      ...unsaved
    ],
    links,
    counts: countsOf(uses.length, targets, outcomes, excluded.length)
  }
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
    excluded
  }
}
