/**
 * `kbsync plan`: what a push would do, grouped by action, without writing.
 * Every line goes through the shared reporter; the plan's text is
 * `output/plan-text.ts`'s, shared with `push` and `watch`.
 */
import type {Command} from '../command.js'
import {commandSummary} from './catalog.js'
import {exitCodes} from '../exit-codes.js'
import {planSummaryMarkdown} from '../output/index.js'
import {formatPlan, opOrder} from '../output/plan-text.js'
import {withCounts} from '../output/counts.js'
import {warningLimitExceeded} from '../output/warning-limit.js'
import {connectionOptions, connectionOptionsHelp, openSession, pushOptionsOf} from '../session.js'
import {stateTargetLine} from './status.js'
import {contextOf, fingerprinted, planPush, type PushPlan} from '../../sync/index.js'
import {
  checkFolderLinks,
  linkCheckExitCode,
  linkCheckOptions,
  linkCheckOptionsHelp,
  linkCheckOptionsOf
} from './check-links.js'

/** Exit code of a plan: invalid input, conflicts, pending changes (with --exit-code). */
export function planExitCode(plan: PushPlan, exitCode: boolean): number {
  if (plan.blocked) return exitCodes.invalid
  if (plan.summary.conflict > 0) return exitCodes.conflict
  const changes = opOrder
    .filter((kind) => kind !== 'drift' && kind !== 'conflict')
    .some((kind) => plan.summary[kind] > 0)
  return exitCode && changes ? exitCodes.changesPending : exitCodes.ok
}

/** The plan's text with the line naming the state's target after its first line. */
function withTargetLine(text: string, plan: PushPlan): string {
  const line = stateTargetLine(plan.target)
  if (!line) return text
  const [first, ...rest] = text.split('\n')
  return [first, line, ...rest].join('\n')
}

export const planCommand: Command = {
  name: 'plan',
  summary: commandSummary('plan'),
  usage:
    'kbsync plan [DIR] [--json] [--root-topic ID] [--prune | --on-orphan MODE] [--remove-twins] [--exit-code] [--max-warnings N] [--check-links [--warn]]',
  description: `Scans DIR (default: the configured folder, else the current one), reads the knowledge base and prints
what \`kbsync push\` would do, grouped by action, with a summary line.

Options:
  --json           the plan as JSON (schema in docs/sync.md), every diagnostic and their counts;
                   saved to a file, \`kbsync push --plan FILE\` applies it if nothing changed since
  --prune          also plan deletions of items no file maps to (--on-orphan delete)
  --on-orphan MODE keep (default), delete, or archive: plan moves of those items under the archive topic
  --remove-twins   also plan deletions of the twins of tracked items (warned about either way)
  --exit-code      exit 4 when there are changes to push
  --broken-links warn|error  a link or image whose target does not exist: publish its text with a warning, or stop (default; config brokenLinks)
  --locale CODE      publish only this locale of a docs site (Starlight, Docusaurus, Hugo), as the whole folder (config locale)
  --max-warnings N fail (exit 2) when there are more than N warnings (config maxWarnings)
  --check-links    also check every external link and image URL, as kbsync check-links does (exit 2 when one is broken):
${linkCheckOptionsHelp}

${connectionOptionsHelp}

Errors are listed in full; warnings are grouped by rule (--verbose lists each).

Exit codes: 0 nothing to do (or changes without --exit-code), 2 invalid input or too many warnings,
3 conflicts with edits made on the platform, 4 changes pending (--exit-code).`,
  examples: [
    'kbsync plan docs',
    'kbsync plan docs --json > plan.json && kbsync push docs --plan plan.json',
    'kbsync plan docs --exit-code --root-topic OJHEAFQ26YT'
  ],
  options: {
    json: {type: 'boolean'},
    prune: {type: 'boolean'},
    'on-orphan': {type: 'string'},
    'remove-twins': {type: 'boolean'},
    'exit-code': {type: 'boolean'},
    'broken-links': {type: 'string'},
    locale: {type: 'string'},
    'max-warnings': {type: 'string'},
    'check-links': {type: 'boolean'},
    ...linkCheckOptions,
    ...connectionOptions
  },
  async run(context) {
    const session = await openSession(context)
    const {reporter, target} = session
    try {
      const plan = await planPush(pushOptionsOf(session, {removeTwins: context.values['remove-twins'] === true}))
      reporter.diagnostics(plan.diagnostics)
      const links =
        context.values['check-links'] === true
          ? await checkFolderLinks(
              session.config,
              linkCheckOptionsOf(session.config, context.values),
              reporter,
              contextOf(plan).scan
            )
          : undefined
      if (context.values.json === true) {
        fingerprinted(plan)
        reporter.json(
          withCounts(
            links
              ? {...plan, linkCheck: {counts: links.counts, links: links.links, diagnostics: links.diagnostics}}
              : plan
          )
        )
      } else reporter.info(withTargetLine(formatPlan(plan, target.description).trimEnd(), plan))
      await reporter.stepSummary(planSummaryMarkdown(plan, {target: target.description}))
      const tooMany = warningLimitExceeded(plan.diagnostics, plan.warningLimit)
      if (tooMany) reporter.error(tooMany)
      if (links && linkCheckExitCode(links) === exitCodes.invalid) return exitCodes.invalid
      return tooMany ? exitCodes.invalid : planExitCode(plan, context.values['exit-code'] === true)
    } finally {
      await target.close()
    }
  }
}
