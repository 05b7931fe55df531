/** The one line that sums up a link-checking run. */
import type {LinkCheckCounts} from './run.js'

/** `Checked 12 URLs (30 links; 4 from the cache): 2 broken, 1 not checked, 1 moved.` */
export function summaryOf(counts: LinkCheckCounts): string {
  const problems = [
    counts.broken > 0 ? `${counts.broken} broken` : '',
    counts.anchorsMissing > 0 ? `${counts.anchorsMissing} missing an anchor` : '',
    counts.unchecked > 0 ? `${counts.unchecked} not checked` : '',
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
