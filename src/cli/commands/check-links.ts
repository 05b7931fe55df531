/**
 * `kbsync check-links [DIR]`: every external link and image URL of the
 * folder's documents requested (see `src/links/`), broken ones reported at
 * each file:line that uses them. `plan --check-links` runs the same check
 * through `checkFolderLinks`.
 */
import type {Command} from '../command.js'
import {commandSummary} from './catalog.js'
import type {KbsyncConfig} from '../config.js'
import {UsageError} from '../errors.js'
import {exitCodes} from '../exit-codes.js'
import {diagnosticsMarkdown, reporterFor, withCounts, type Reporter} from '../output/index.js'
import {folderConfig, linkOptionsOf} from '../session.js'
import {BodyCache, scanFolder, type ScanResult} from '../../local/index.js'
import {
  checkLinks,
  collectLinkUses,
  summaryOf,
  type LinkCheckOptions,
  type LinkCheckResult,
  type LinkOutcome
} from '../../links/index.js'

/** The options of the link check, for `check-links` and `plan --check-links`. */
export const linkCheckOptions = {
  warn: {type: 'boolean'},
  'no-cache': {type: 'boolean'},
  'link-concurrency': {type: 'string'},
  'per-host': {type: 'string'},
  'link-timeout': {type: 'string'},
  'link-budget': {type: 'string'},
  'allow-private': {type: 'boolean'}
} satisfies Command['options']

/** The `--help` lines of `linkCheckOptions`. */
export const linkCheckOptionsHelp = `  --warn              broken links are warnings (exit 0), not errors (config checkLinks.warn)
  --no-cache          check every URL again, ignoring and not writing .kbsync/link-cache.json
  --link-concurrency N  URLs checked at once (default 8; config checkLinks.concurrency)
  --per-host N        URLs of one host checked at once (default 2; config checkLinks.perHost)
  --link-timeout MS   time-out of one request, its redirects included (default 10000; config checkLinks.timeoutMs)
  --link-budget S     time budget of the whole check in seconds (default 120): links not checked by then are reported as such
  --allow-private     also request loopback and private-network addresses (intranet docs); a repository's links
                      never reach them otherwise, nor link-local ones (cloud metadata) at all`

/** The checker's options as the config and the flags set them. */
export function linkCheckOptionsOf(
  config: Pick<KbsyncConfig, 'checkLinks'>,
  values: Record<string, unknown>
): LinkCheckOptions {
  const {warn, concurrency, perHost, timeoutMs, cacheHours, exclude} = config.checkLinks
  // checkLinks drops the options left undefined: each takes its default.
  const okTtlMs = cacheHours === undefined ? undefined : cacheHours * 3600 * 1000
  // Where requests may go and how long they may take are the user's word, from the command line only: never a
  // key of a config file, which may come with the repository.
  return {
    warn,
    concurrency,
    perHost,
    timeoutMs,
    okTtlMs,
    exclude,
    noCache: values['no-cache'] === true,
    allowPrivate: values['allow-private'] === true,
    budgetMs: budgetMsOf(values['link-budget'])
  }
}

/** Longest `--link-budget`, in seconds: a day. */
const maxBudgetSeconds = 86_400

/** `--link-budget SECONDS` in milliseconds (undefined: the default). */
function budgetMsOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined
  const seconds = Number(value)
  if (!/^\d+$/.test(value.trim()) || seconds < 1 || seconds > maxBudgetSeconds)
    throw new UsageError(
      `--link-budget must be a whole number of seconds from 1 to ${maxBudgetSeconds}, not '${value}' (e.g. --link-budget 300)`
    )
  return seconds * 1000
}

/**
 * Checks the external links of the documents of the config's folder (`scan`
 * when the caller has scanned it already, as `plan` has; else scanned now);
 * reports the diagnostics and the summary line.
 */
export async function checkFolderLinks(
  config: KbsyncConfig,
  options: LinkCheckOptions,
  reporter: Reporter,
  scanned?: ScanResult
): Promise<LinkCheckResult> {
  const scan =
    scanned ??
    (await scanFolder(config.dir, {
      ignore: config.ignore,
      links: linkOptionsOf(config),
      cache: await BodyCache.load(config.dir)
    }))
  const onChecked = (url: string, outcome: LinkOutcome, done: number, total: number) => {
    reporter.debug(
      `${url}: ${outcome.cached ? 'OK (cached)' : outcome.status === 'ok' ? `OK (${outcome.httpStatus})` : `${outcome.status}, ${outcome.reason}`}`
    )
    reporter.progress(done, total, 'checking links')
  }
  const result = await checkLinks(collectLinkUses(scan), scan.dir, {...options, onChecked})
  reporter.endProgress()
  reporter.diagnostics(result.diagnostics)
  reporter.info(summaryOf(result.counts))
  return result
}

/** Exit code of a link check: invalid input (2) when a link is broken and broken links are errors. */
export function linkCheckExitCode(result: LinkCheckResult): number {
  return result.diagnostics.some((d) => d.severity === 'error') ? exitCodes.invalid : exitCodes.ok
}

export const checkLinksCommand: Command = {
  name: 'check-links',
  summary: commandSummary('check-links'),
  usage:
    'kbsync check-links [DIR] [--warn] [--no-cache] [--json] [--link-concurrency N] [--per-host N] [--link-timeout MS] [--link-budget S] [--allow-private]',
  description: `Requests every http(s) link and image URL of DIR's documents once (HEAD, then GET when HEAD is
refused), following redirects, with retries on 5xx answers and failed connections; a 429 is waited out
when its Retry-After is at most 60 s, else the link is reported as not checked. A time-out is not
retried, and a host that times out twice in a row is not asked again; the whole check ends within
--link-budget. Only public addresses are requested: a link (or a redirect) to this machine, a private
network, link-local (cloud metadata), multicast or reserved address is reported as not checked, a
warning, checked on the address connected to after DNS (--allow-private admits loopback and private
networks, for intranet docs). A link with a #fragment
to an HTML page must name an id or <a name> of the page. Broken links are reported at each file:line that
uses them; a permanent redirect is noted so the link can be updated. OK results are kept 24 h in
.kbsync/link-cache.json (config checkLinks.cacheHours); broken ones are checked again every run.
Nothing is sent to the knowledge base. \`kbsync plan --check-links\` runs the same check after the plan.

Options:
  --json              the result as JSON: counts, every URL with its outcome and uses, the diagnostics
${linkCheckOptionsHelp}
  --config FILE       use this config file instead of searching for one
  --dir DIR           the folder (the same as the DIR argument)
  --quiet             only warnings, errors and diagnostics
  --verbose           every warning one line each

Config checkLinks.exclude lists URLs not to check (prefixes, or patterns with *).

Exit codes: 0 no broken link (or --warn), 2 broken links or anchors, or invalid usage.`,
  examples: [
    'kbsync check-links docs',
    'kbsync check-links docs --warn --json > links.json',
    'kbsync check-links docs --link-timeout 30000 --per-host 1',
    'kbsync check-links docs --allow-private --link-budget 600'
  ],
  options: {
    json: {type: 'boolean'},
    config: {type: 'string'},
    dir: {type: 'string'},
    quiet: {type: 'boolean'},
    verbose: {type: 'boolean'},
    ...linkCheckOptions
  },
  async run(context) {
    const config = await folderConfig(context, {withoutSecrets: true})
    const reporter = reporterFor(context, {dir: config.dir})
    const result = await checkFolderLinks(config, linkCheckOptionsOf(config, context.values), reporter)
    if (context.values.json === true)
      reporter.json(
        withCounts({
          schemaVersion: 1,
          dir: config.dir,
          counts: result.counts,
          links: result.links,
          diagnostics: result.diagnostics
        })
      )
    await reporter.stepSummary(
      [`### kbsync check-links`, '', summaryOf(result.counts), '', diagnosticsMarkdown(result.diagnostics)].join('\n')
    )
    return linkCheckExitCode(result)
  }
}
