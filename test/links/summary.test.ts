/**
 * The one line that sums up a link-checking run (`summaryOf`): what a reader
 * sees for a clean run, for each kind of problem, singular and plural, and
 * why some URLs were not checked.
 */
import {describe, expect, it} from 'vitest'
import {summaryOf, type LinkCheckCounts} from '../../src/links/index.js'

/** Counts of a run that found nothing wrong, with `changes` over them. */
function counts(changes: Partial<LinkCheckCounts> = {}): LinkCheckCounts {
  return {
    uses: 0,
    urls: 0,
    cached: 0,
    ok: 0,
    broken: 0,
    unchecked: 0,
    anchorsMissing: 0,
    moved: 0,
    excluded: 0,
    privateAddress: 0,
    overBudget: 0,
    ...changes
  }
}

describe('summaryOf', () => {
  it('says all is well for a clean run, in the singular for one URL and one use', () => {
    expect(summaryOf(counts({uses: 1, urls: 1, ok: 1}))).toBe('Checked 1 external URL (1 use): all OK.')
    expect(summaryOf(counts({uses: 5, urls: 3, ok: 3}))).toBe('Checked 3 external URLs (5 uses): all OK.')
  })

  it('adds the uses answered from the cache and those excluded by the config', () => {
    expect(summaryOf(counts({uses: 30, urls: 12, ok: 12, cached: 4, excluded: 2}))).toBe(
      'Checked 12 external URLs (30 uses; 4 from the cache; 2 excluded): all OK.'
    )
  })

  it('lists every kind of problem, in a fixed order', () => {
    expect(summaryOf(counts({uses: 9, urls: 8, broken: 2, anchorsMissing: 1, unchecked: 3, moved: 1}))).toBe(
      'Checked 8 external URLs (9 uses): 2 broken, 1 missing an anchor, 3 not checked, 1 moved permanently.'
    )
  })

  it('says why URLs were not checked when that is known: private addresses and the time budget', () => {
    expect(summaryOf(counts({uses: 3, urls: 3, unchecked: 1, privateAddress: 1}))).toBe(
      'Checked 3 external URLs (3 uses): 1 not checked (1 private address).'
    )
    expect(summaryOf(counts({uses: 6, urls: 6, unchecked: 5, privateAddress: 2, overBudget: 3}))).toBe(
      'Checked 6 external URLs (6 uses): 5 not checked (2 private addresses, 3 over the time budget).'
    )
    expect(summaryOf(counts({uses: 4, urls: 4, unchecked: 4, overBudget: 4}))).toBe(
      'Checked 4 external URLs (4 uses): 4 not checked (4 over the time budget).'
    )
  })
})
