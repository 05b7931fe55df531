/**
 * The external link checker: every http(s) link and image URL of a
 * folder's documents requested once (HEAD, else GET), with bounded
 * concurrency per run and per host, retries, a cache under `.kbsync/`, and
 * anchors looked for on HTML pages. See `docs/cli.md`, `kbsync check-links`.
 */
export {collectLinkUses} from './collect.js'
export {groupTargets, excludeMatcher, splitFragment} from './targets.js'
export {anchorsOf, isAnchorFragment, missingAnchors} from './anchors.js'
export {LinkCache, linkCacheFile, linkCachePath} from './cache.js'
export {linkRules} from './report.js'
export {checkLinks, linkCheckDefaults, type CheckedLink, type LinkCheckCounts, type LinkCheckResult} from './run.js'
export {summaryOf} from './summary.js'
export type {LinkCheckOptions, LinkOutcome, LinkStatus, LinkTarget, LinkUse} from './types.js'
