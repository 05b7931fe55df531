/**
 * `kbsync push`: applies the plan. One line per action (a progress bar on a
 * TTY), then a summary; `--dry-run` prints the plan instead.
 */
import type {Command} from '../command.js'
import {commandSummary} from './catalog.js'
import {exitCodes} from '../exit-codes.js'
import {plural, planSummaryMarkdown, pushSummaryMarkdown, type Reporter} from '../output/index.js'
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {
  applyPush,
  fingerprinted,
  parsePlanFile,
  planPush,
  recheckSavedPlan,
  StalePlanError,
  type PushOptions,
  type PushPlan,
  type PushResult
} from '../../sync/index.js'
import type {CommandContext} from '../command.js'
import {UsageError} from '../errors.js'
import {eventPrinter} from '../output/events.js'
import {withCounts} from '../output/counts.js'
import {warningLimitExceeded} from '../output/warning-limit.js'
import {connectionOptions, connectionOptionsHelp, openSession, pushOptionsOf} from '../session.js'
import {formatPlan, orphansLeft, removalsLine} from '../output/plan-text.js'
import {planExitCode} from './plan.js'

/** The exit code of a push result. */
export function pushExitCode(result: PushResult): number {
  switch (result.status) {
    case 'invalid':
    case 'refused':
      return exitCodes.invalid
    case 'failed':
      return exitCodes.failure
    case 'conflict':
      return exitCodes.conflict
    default:
      return exitCodes.ok
  }
}

/** `--plan FILE`: the saved plan, read and checked for shape before anything connects; undefined without the flag. */
async function savedPlanOf(context: CommandContext): Promise<PushPlan | undefined> {
  const file = context.values.plan
  if (file === undefined) return undefined
  if (typeof file !== 'string' || file === '') throw new UsageError('--plan needs a file: kbsync push --plan plan.json')
  for (const flag of ['dry-run', 'prune', 'force', 'remove-twins'] as const) {
    if (context.values[flag] === true || (flag === 'prune' && context.values['on-orphan'] !== undefined))
      throw new UsageError(
        `--plan applies the plan with the options it was made with: give --${flag} to \`kbsync plan\` instead`
      )
  }
  let text: string
  try {
    text = await readFile(path.resolve(context.cwd, file), 'utf8')
  } catch (error) {
    throw new UsageError(`cannot read the plan file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`)
  }
  try {
    return parsePlanFile(text, file)
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
}

/** The plan computed now for `saved`, when it is still the saved one; otherwise says what changed and returns undefined. */
async function recheckOrReport(
  saved: PushPlan,
  options: PushOptions,
  reporter: {error(line: string): void}
): Promise<{plan: PushPlan; options: PushOptions} | undefined> {
  try {
    return await recheckSavedPlan(saved, options)
  } catch (error) {
    if (!(error instanceof StalePlanError)) throw error
    for (const reason of error.reasons) reporter.error(`The saved plan is out of date: ${reason}.`)
    reporter.error('Nothing was written. Make the plan again (kbsync plan --json > FILE), review it, and push it.')
    return undefined
  }
}

/** The outcome of a push: refused deletions, items kept outside the folder, then the result (as JSON or a line). */
function reportResult(reporter: Reporter, result: PushResult, options: PushOptions, json: boolean): void {
  const {plan} = result
  if (result.status === 'refused') {
    reporter.error(
      `${removalsLine(plan)} planned, more than ${options.maxDeletions ?? 10}: run again with --yes to confirm. Nothing was written.`
    )
  }
  const listed = orphansLeft(plan)
  if (listed.length > 0 && !options.prune && options.onOrphan !== 'delete') {
    reporter.info(
      `${listed.length} item(s) under the root are not in the folder (kept; --on-orphan delete (--prune) deletes the ones kbsync created, --on-orphan archive moves them under the archive topic):`
    )
    for (const orphan of listed)
      reporter.info(
        `    ${orphan.type} ${orphan.remoteId} "${orphan.title}"${orphan.path ? ` (was ${orphan.path})` : ''}`
      )
  }
  if (json) {
    reporter.json({
      status: result.status,
      writes: result.writes,
      done: result.done,
      skipped: result.skipped,
      failed: result.failed,
      written: result.written,
      plan: withCounts(fingerprinted(plan))
    })
  } else {
    const failed = result.failed.length > 0 ? `, ${result.failed.length} failed` : ''
    const line = `Done: ${plural(result.done.length, 'step')}, ${plural(result.writes, 'write request')}${failed}; status ${result.status}.`
    if (result.status === 'ok') reporter.success(line)
    else reporter.info(line)
  }
}

export const pushCommand: Command = {
  name: 'push',
  summary: commandSummary('push'),
  usage:
    'kbsync push [DIR] [--dry-run] [--prune | --on-orphan delete|archive|keep] [--remove-twins] [--yes] [--force] [--write-ids] [--plan FILE] [--root-topic ID] [--json] [--max-warnings N] [--concurrency N]',
  description: `Scans DIR (default: the configured folder, else the current one), plans and
applies the changes: creates, updates, renames, moves, permissions, uploads
(each file once). Invalid input stops the run before any write. Errors are
listed in full; warnings are grouped by rule (--verbose lists each). With no API
URL configured, pushes to the embedded local knowledge base (.kbsync/local-kb.json).

Options:
  --dry-run          print the plan, write nothing (same as kbsync plan)
  --prune            delete items under the root that kbsync created and no file maps to any more
                     (the same as --on-orphan delete)
  --on-orphan MODE   what becomes of those items: keep (default: listed), delete, or archive (moved
                     under the topic "Archive" at the root, created when missing; config onOrphan,
                     archiveTopic), with the guards of --prune
  --remove-twins      delete the twins of tracked items that pushes running at once left (same parent,
                     same title, same body, same author; the plan warns about each), like --prune
  --yes              confirm more deletions (or archive moves) than --max-deletions (default 10)
  --force            overwrite edits made on the platform since the last push
  --write-ids        write kb_id into the front matter of files whose items were created
  --plan FILE        apply the plan \`kbsync plan --json > FILE\` saved, with the options it was made
                     with, only if neither the folder, the knowledge base nor the sync state changed
                     since (else exit 2, nothing written); not with --dry-run, --prune or --force
  --broken-links warn|error  a link or image whose target does not exist: publish its text with a warning, or stop (default; config brokenLinks)
  --locale CODE      publish only this locale of a docs site (Starlight, Docusaurus, Hugo), as the whole folder (config locale)
  --json             print the result as JSON (every diagnostic, and their counts)
  --max-warnings N   push nothing and exit 2 when there are more than N warnings (config maxWarnings)

${connectionOptionsHelp}

Exit codes: 0 done, 1 a step failed, 2 invalid input, too many warnings or
unconfirmed deletions (nothing written), 3 conflicts (the remote version is written beside the file
as NAME.remote.md).`,
  examples: [
    'kbsync push docs',
    'kbsync push docs --prune --yes',
    'kbsync push docs --on-orphan archive',
    'kbsync push docs --dry-run --json',
    'kbsync plan docs --json > plan.json && kbsync push docs --plan plan.json'
  ],
  options: {
    'dry-run': {type: 'boolean'},
    prune: {type: 'boolean'},
    'on-orphan': {type: 'string'},
    'remove-twins': {type: 'boolean'},
    yes: {type: 'boolean'},
    force: {type: 'boolean'},
    'write-ids': {type: 'boolean'},
    'broken-links': {type: 'string'},
    locale: {type: 'string'},
    json: {type: 'boolean'},
    'max-warnings': {type: 'string'},
    plan: {type: 'string'},
    ...connectionOptions
  },
  stopsGracefully: true,
  async run(context) {
    const saved = await savedPlanOf(context)
    const session = await openSession(context)
    const {reporter, target} = session
    try {
      const printEvent = eventPrinter(reporter)
      let options = pushOptionsOf(session, {
        force: context.values.force === true,
        yes: context.values.yes === true,
        removeTwins: context.values['remove-twins'] === true,
        writeIds: context.values['write-ids'] === true,
        onEvent: printEvent
      })
      let plan: PushPlan
      if (saved) {
        const checked = await recheckOrReport(saved, options, reporter)
        if (!checked) return exitCodes.invalid
        ;({plan, options} = checked)
      } else plan = await planPush({...options, forApply: context.values['dry-run'] !== true})
      reporter.diagnostics(plan.diagnostics)
      const tooMany = warningLimitExceeded(plan.diagnostics, plan.warningLimit)
      if (context.values['dry-run'] === true) {
        if (context.values.json === true) reporter.json(withCounts(fingerprinted(plan)))
        else reporter.info(formatPlan(plan, target.description).trimEnd())
        await reporter.stepSummary(planSummaryMarkdown(plan, {target: target.description}))
        if (tooMany) reporter.error(tooMany)
        return tooMany ? exitCodes.invalid : planExitCode(plan, false)
      }
      if (tooMany) {
        // Before any write: the limit is a gate on the input, like an error.
        reporter.error(`${tooMany}. Nothing was written.`)
        if (context.values.json === true)
          reporter.json({
            status: 'invalid',
            writes: 0,
            done: [],
            skipped: [],
            failed: [],
            written: [],
            plan: withCounts(fingerprinted(plan)),
            error: tooMany
          })
        await reporter.stepSummary(
          planSummaryMarkdown(plan, {title: 'kbsync push: too many warnings', target: target.description})
        )
        return exitCodes.invalid
      }
      reporter.info(
        `Pushing ${options.dir} -> ${target.description}, root ${plan.rootTopicId ?? '(knowledge-base root)'}`
      )
      printEvent({type: 'plan', plan})
      const result = await applyPush(plan, options)
      reporter.endProgress()
      reportResult(reporter, result, options, context.values.json === true)
      await reporter.stepSummary(pushSummaryMarkdown(result, {target: target.description}))
      return pushExitCode(result)
    } finally {
      await target.close()
    }
  }
}
