/** The one line that sums up a link-checking run. */
import type {LinkCheckCounts} from './run.js'

/** `Checked 12 URLs (30 links; 4 from the cache): 2 broken, 3 not checked (2 private addresses), 1 moved.` */
export function summaryOf(counts: LinkCheckCounts): string {
  const problems = [
    counts.broken > 0 ? `${counts.broken} broken` : '',
    counts.anchorsMissing > 0 ? `${counts.anchorsMissing} missing an anchor` : '',
    counts.unchecked > 0 ? `${counts.unchecked} not checked${notCheckedDetail(counts)}` : '',
    counts.moved > 0 ? `${counts.moved} moved permanently` : ''
  ].filter(Boolean)
  const details = [
    `${counts.uses} ${counts.uses === 1 ? 'use' : 'uses'}`,
    counts.cached > 0 ? `${counts.cached} from the cache` : '',
    counts.excluded > 0 ? `${counts.excluded} excluded` : ''
  ].filter(Boolean)
  const head = `Checked ${counts.urls} external ${counts.urls === 1 ? 'URL' : 'URLs'} (${details.join('; ')})`
  return `${head}: ${problems.length > 0 ? problems.join(', ') : 'all OK'}.`
}

/** ` (2 private addresses, 1 over the time budget)`: why some were not checked, when that is known. */
function notCheckedDetail(counts: LinkCheckCounts): string {
  const parts = [
    counts.privateAddress > 0
      ? `${counts.privateAddress} private ${counts.privateAddress === 1 ? 'address' : 'addresses'}`
      : '',
    counts.overBudget > 0 ? `${counts.overBudget} over the time budget` : ''
  ].filter(Boolean)
  return parts.length > 0 ? ` (${parts.join(', ')})` : ''
}
