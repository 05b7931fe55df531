/**
 * What the outcomes mean for the author, as diagnostics at each place a URL
 * is used: a broken link (an error, or a warning with `--warn`), an anchor
 * the page lacks (likewise), a link that could not be checked (a warning),
 * a link not requested because it leads to a private address (a warning of
 * its own rule, so the output groups them with a count), and a link that
 * moved for good (an info: worth updating). URLs cut off by the time budget
 * make one warning for the run, with their count.
 */
import type {Diagnostic} from '../local/index.js'
import {formatSeconds} from './request.js'
import {splitFragment} from './targets.js'
import type {LinkOutcome, LinkTarget, LinkUse} from './types.js'

/** The rules of the link checker's diagnostics. */
export const linkRules = {
  broken: 'link-broken-external',
  anchor: 'link-anchor-missing',
  unchecked: 'link-unchecked',
  privateAddress: 'link-private-address',
  budget: 'link-budget-spent',
  moved: 'link-redirected'
} as const

/** The diagnostics of one target's outcome, one per use it concerns, in the order of the uses. */
export function diagnosticsOf(target: LinkTarget, outcome: LinkOutcome, warn: boolean): Diagnostic[] {
  const severity = warn ? 'warning' : 'error'
  if (outcome.status === 'broken') {
    return target.uses.map((use) =>
      at(use, {
        severity,
        message: `${what(use)} \`${use.url}\` is broken: ${outcome.reason ?? 'no answer'}`,
        hint: 'Fix or remove it; a site that refuses checkers can be listed in checkLinks.exclude',
        rule: linkRules.broken
      })
    )
  }
  // Cut off by the budget: one warning for the run says how many (`budgetDiagnostics`).
  if (outcome.notChecked === 'time-budget') return []
  if (outcome.notChecked === 'private-address') {
    return target.uses.map((use) =>
      at(use, {
        severity: 'warning',
        message: `${what(use)} \`${use.url}\` was not checked: ${outcome.reason ?? 'private address'}`,
        hint: 'Links to this machine or a private network are not requested; pass --allow-private to check intranet links',
        rule: linkRules.privateAddress
      })
    )
  }
  if (outcome.status === 'unchecked') {
    return target.uses.map((use) =>
      at(use, {
        severity: 'warning',
        message: `${what(use)} \`${use.url}\` was not checked: ${outcome.reason ?? 'unknown'}`,
        hint:
          outcome.notChecked === 'host-timed-out'
            ? 'Run the check again later, or give slow sites more time with --link-timeout'
            : 'Run the check again later',
        rule: linkRules.unchecked
      })
    )
  }
  const missing = new Set(outcome.missingAnchors ?? [])
  const found: Diagnostic[] = []
  for (const use of target.uses) {
    const {fragment} = splitFragment(use.url)
    if (fragment !== undefined && missing.has(fragment)) {
      found.push(
        at(use, {
          severity,
          message: `${what(use)} \`${use.url}\`: the page has no anchor \`#${fragment}\``,
          hint: 'Point it at a heading or id the page has, or drop the fragment',
          rule: linkRules.anchor
        })
      )
    } else if (outcome.movedTo !== undefined) {
      found.push(
        at(use, {
          severity: 'info',
          message: `${what(use)} \`${use.url}\` redirects permanently to \`${outcome.movedTo}\``,
          hint: 'Update the link',
          rule: linkRules.moved
        })
      )
    }
  }
  return found
}

/** One warning for the URLs the time budget cut off, with their count and uses; none when the budget sufficed. */
export function budgetDiagnostics(
  links: ReadonlyArray<{outcome: LinkOutcome; uses: readonly LinkUse[]}>,
  budgetMs: number
): Diagnostic[] {
  const cut = links.filter((link) => link.outcome.notChecked === 'time-budget')
  if (cut.length === 0) return []
  const uses = cut.reduce((sum, link) => sum + link.uses.length, 0)
  return [
    {
      severity: 'warning',
      message: `The link check's time budget of ${formatSeconds(budgetMs)} was spent: ${cut.length} ${cut.length === 1 ? 'URL' : 'URLs'} (${uses} ${uses === 1 ? 'use' : 'uses'}) not checked`,
      hint: 'Give it more time with --link-budget SECONDS, or exclude slow sites (checkLinks.exclude); --json lists them',
      rule: linkRules.budget
    }
  ]
}

function what(use: LinkUse): string {
  return use.kind === 'image' ? 'Image' : 'Link'
}

/** The diagnostic at the place of `use`. */
function at(use: LinkUse, diagnostic: Omit<Diagnostic, 'file' | 'line' | 'column'>): Diagnostic {
  return {
    ...diagnostic,
    file: use.file,
    ...(use.line !== undefined ? {line: use.line} : {}),
    ...(use.column !== undefined ? {column: use.column} : {})
  }
}
