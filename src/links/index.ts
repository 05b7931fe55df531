/**
 * The external link checker: every http(s) link and image URL of a
 * folder's documents requested once (HEAD, else GET), with bounded
 * concurrency per run and per host, retries, a cache under `.kbsync/`, and
 * anchors looked for on HTML pages. See `docs/cli.md`, `kbsync check-links`.
 */
export {collectLinkUses} from './collect.js'
export {groupTargets, excludeMatcher, splitFragment} from './targets.js'
export {isAnchorFragment, missingAnchors} from './anchors.js'
export {linkCacheFile} from './cache.js'
export {checkLinks, type CheckedLink, type LinkCheckCounts, type LinkCheckResult} from './run.js'
export {summaryOf} from './summary.js'
export type {LinkCheckOptions, LinkOutcome, LinkStatus, LinkTarget, LinkUse} from './types.js'
