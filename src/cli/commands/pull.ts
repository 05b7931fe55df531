/**
 * `kbsync pull`: brings the knowledge base (or one topic) into a folder, and
 * web edits back later. One line per file written (a progress line on a
 * TTY), then a summary; `--dry-run` prints the plan instead.
 */
import {oneLine} from '../../trust/index.js'
import path from 'node:path'
import type {Command, CommandContext} from '../command.js'
import {commandSummary} from './catalog.js'
import {UsageError} from '../errors.js'
import {exitCodes} from '../exit-codes.js'
import {plural} from '../output/index.js'
import {defaultArchiveTopic, type SyncClient} from '../../sync/index.js'
import {
  applyPull,
  planPullRun,
  type PullClient,
  type PullEvent,
  type PullOp,
  type PullOpKind,
  type PullOptions,
  type PullPlan,
  type PullResult
} from '../../sync/pull/index.js'
import {
  connectionOptions,
  connectionOptionsHelp,
  linkOptionsOf,
  localeChoiceOf,
  openSession,
  orphanOptionsOf,
  type SyncSession
} from '../session.js'
import {pullWebEdits, webEditsHelp, webEditsOptions, webEditsRequest, type PullRun} from '../web-edits/index.js'

const order: PullOpKind[] = ['create', 'update', 'move', 'delete', 'conflict']
const signs: Record<PullOpKind, string> = {create: '+', update: '~', move: '>', delete: '-', conflict: '!'}
const verbs: Record<PullOpKind, string> = {
  create: 'wrote',
  update: 'updated',
  move: 'moved',
  delete: 'deleted',
  conflict: "merged the platform's edits into"
}

/** One line for a pull op. */
export function formatPullOp(op: PullOp): string {
  // Paths and titles are the repository's and the platform's: on one line each (oneLine).
  const where = oneLine(op.from !== undefined && op.from !== op.path ? `${op.from} -> ${op.path}` : op.path)
  return `  ${signs[op.op]} ${op.type.padEnd(7)} ${where}  "${oneLine(op.title)}"  (${oneLine(op.reason)})`
}

/** The pull plan as text, grouped by action. */
export function formatPullPlan(plan: PullPlan, target: string): string {
  const lines = [`Pull plan for ${target} -> ${plan.dir}, root ${plan.rootTopicId ?? '(knowledge-base root)'}`]
  for (const kind of order) {
    const ops = plan.ops.filter((op) => op.op === kind && !op.refresh)
    if (ops.length > 0) lines.push('', `${kind} (${ops.length}):`, ...ops.map(formatPullOp))
  }
  const parts = order.filter((kind) => plan.summary[kind] > 0).map((kind) => `${plan.summary[kind]} ${kind}`)
  lines.push(
    '',
    parts.length === 0 ? 'No changes: the folder matches the knowledge base.' : `Plan: ${parts.join(', ')}.`
  )
  return lines.join('\n') + '\n'
}

/** The exit code of a pull: 3 when conflicts are left, 1 when a step failed. */
export function pullExitCode(result: PullResult): number {
  if (result.status === 'failed') return exitCodes.failure
  if (result.status === 'conflict') return exitCodes.conflict
  return exitCodes.ok
}

/** `--from FOLDER`: the folder whose embedded knowledge base to pull (resolved against the working directory). */
function embeddedSource(context: CommandContext): {embeddedDir?: string} {
  const from = context.values.from
  if (from === undefined) return {}
  if (typeof from !== 'string' || from.trim() === '')
    throw new UsageError('--from takes the folder whose embedded knowledge base to pull, e.g. --from docs')
  if (typeof context.values['api-url'] === 'string')
    throw new UsageError(
      "--from pulls a folder's embedded knowledge base and --api-url the platform's: give one of them"
    )
  return {embeddedDir: path.resolve(context.cwd, from)}
}

export const pullCommand: Command = {
  name: 'pull',
  summary: commandSummary('pull'),
  usage:
    'kbsync pull [DIR] [--from FOLDER] [--root-topic ID] [--no-permissions] [--broken-links warn|error] [--dry-run] [--json] [--branch NAME] [--pull-request] [--config FILE] [--quiet|--verbose]',
  description: `Writes the knowledge base under the root into DIR (default: the configured
dir, else the current folder): a folder with _index.md per topic, a .md file per article (front
matter title and kb_id), _permissions.yml where a topic's permissions are not
inherited, images and attachments downloaded into _assets/. Bodies are
converted to GitHub-flavoured Markdown only where that converts back exactly;
a push right after a pull changes nothing.

In a folder pulled before, only items changed on the platform since the last
sync are written. A file changed locally too is a conflict: it is kept, and
the remote version is written beside it as NAME.remote.md.

Options:
  --from FOLDER      pull the embedded local knowledge base of another folder (its
                     .kbsync/local-kb.json, through the server of the kbsync process using
                     it, if any) instead of the configured one
  --no-permissions   read no permissions and write no permission files (a one-off
                     export: one request per item fewer); _permissions.yml files and
                     front matter permissions already in DIR are left as they are.
                     Without it, a folder that manages permissions (it declares some,
                     or is empty, or config permissions is "manage") has every item's
                     read; one that does not (config permissions "ignore", or none
                     declared) gets none
  --broken-links warn|error  as push takes broken links (config brokenLinks): the check
                     after the pull warns "push will refuse this" only where push would
  --dry-run          print what would be written, write nothing
  --json             print the result as JSON (only the JSON on stdout)
${webEditsHelp}

${connectionOptionsHelp}

Exit codes: 0 done, 1 a step failed, 2 invalid input or configuration, a pull
refused (nothing written), 3 conflicts (both versions kept).`,
  examples: [
    'kbsync pull docs',
    'kbsync pull copy --from docs',
    'kbsync pull docs --root-topic OJHEAFQ26YT',
    'kbsync pull docs --dry-run --json',
    'kbsync pull export --no-permissions',
    'kbsync pull docs --branch web-edits',
    'GITHUB_REPOSITORY=acme/handbook GITHUB_TOKEN=… kbsync pull docs --pull-request',
    'kbsync pull --config handbook/kbsync.config.json --verbose'
  ],
  options: {
    from: {type: 'string'},
    'no-permissions': {type: 'boolean'},
    'broken-links': {type: 'string'},
    'dry-run': {type: 'boolean'},
    json: {type: 'boolean'},
    ...webEditsOptions,
    ...connectionOptions
  },
  stopsGracefully: true,
  async run(context) {
    const request = webEditsRequest(context)
    const session = await openSession(context, {mayCreateDir: true, ...embeddedSource(context)})
    try {
      if (request === undefined) return (await pullInto(context, session, session.config.dir)).code
      return await pullWebEdits(context, session, request, (dir) => pullInto(context, session, dir))
    } finally {
      await session.target.close()
    }
  }
}

/** The options of the pull of the session's knowledge base into `dir`, from the command line and the config. */
function pullOptionsOf(
  context: CommandContext,
  session: SyncSession,
  dir: string,
  onEvent: (event: PullEvent) => void
): PullOptions & {client: SyncClient & PullClient} {
  const {config, target} = session
  // The shared target is typed for push; the API client behind it also downloads files.
  const client = target.client as SyncClient & Partial<Pick<PullClient, 'downloadFile'>>
  if (typeof client.downloadFile !== 'function') throw new Error('This client cannot download files')
  return {
    dir,
    client: client as SyncClient & PullClient,
    rootTopicId: config.rootTopic,
    ...(target.stateTarget ? {target: target.stateTarget} : {}),
    concurrency: config.concurrency,
    ignore: config.ignore,
    links: linkOptionsOf(config),
    onEvent,
    // A dry run downloads nothing early either.
    dryRun: context.values['dry-run'] === true,
    ...(config.notice !== undefined ? {notice: config.notice} : {}),
    ...(config.repoUrl !== undefined ? {repoUrl: config.repoUrl} : {}),
    ...(orphanOptionsOf(config).onOrphan === 'archive'
      ? {archiveTopic: config.archiveTopic ?? defaultArchiveTopic}
      : {}),
    // --no-permissions wins over the config's switch; unset, the folder decides (`managesPermissions`).
    permissions: context.values['no-permissions'] === true ? 'ignore' : (config.permissions ?? 'auto'),
    ...(config.articleUrl !== undefined ? {articleUrl: config.articleUrl} : {}),
    // The round trip renders a file as push does: the same locales.
    locales: localeChoiceOf(config),
    ...(session.signal ? {signal: session.signal} : {})
  }
}

/** The pull of the session's knowledge base into `dir` (the configured folder, or a branch's worktree of it). */
async function pullInto(context: CommandContext, session: SyncSession, dir: string): Promise<PullRun> {
  const {config, reporter, target} = session
  const json = context.values.json === true
  let count = 0
  let total = 0
  const onEvent = (event: PullEvent) => {
    if (event.type === 'done' && event.changed && !event.op.refresh) {
      count++
      reporter.action(`${verbs[event.op.op]} ${event.op.type} ${event.op.path || '(root)'} (${event.op.id})`)
      reporter.progress(count, total, event.op.path)
    } else if (event.type === 'failed') {
      reporter.error(`${formatPullOp(event.op).trim()}: ${event.error}`)
    } else if (event.type === 'conflict-file') {
      const why = event.unmergeable
        ? ": the platform's edit cannot be written into the file faithfully (pull-unmergeable below)"
        : event.op.unverified
          ? ' was never synced and differs from the platform'
          : ' was edited on the platform and locally'
      reporter.error(`conflict: ${event.op.path}${why}; your file is kept, the remote version is in ${event.file}`)
    }
  }
  const options = pullOptionsOf(context, session, dir, onEvent)
  const {plan, context: pullContext} = await planPullRun(options)
  if (context.values['dry-run'] === true) {
    reporter.diagnostics(plan.diagnostics)
    if (json) reporter.json(plan)
    else reporter.info(formatPullPlan(plan, target.description).trimEnd())
    return {code: plan.summary.conflict > 0 ? exitCodes.conflict : exitCodes.ok}
  }
  // In a branch's worktree (--branch), the folder is a temporary one: named as the checkout's.
  const into = dir === config.dir ? config.dir : `${config.dir} (a temporary worktree)`
  reporter.info(`Pulling ${target.description}, root ${plan.rootTopicId ?? '(knowledge-base root)'} -> ${into}`)
  total = plan.ops.filter((op) => !op.refresh && op.op !== 'conflict').length
  const result = await applyPull(plan, pullContext, options)
  reporter.endProgress()
  reporter.diagnostics(result.diagnostics)
  // Deleted on the platform, edited locally: the file is kept and no copy is written, so no event said it.
  const gone = plan.ops.filter((op) => op.op === 'conflict' && !pullContext.remote.items[op.id])
  if (!json) for (const op of gone) reporter.error(`conflict: ${op.path}: ${op.reason}`)
  if (json) {
    reporter.json({
      status: result.status,
      written: result.written,
      conflicts: result.conflicts,
      failed: result.failed,
      diagnostics: result.diagnostics,
      plan
    })
  } else {
    // The conflicts left: those this pull resolved (the file already held the remote version) are none.
    const left = result.conflicts.length + gone.length
    const conflicts = left > 0 ? `, ${plural(left, 'conflict')}` : ''
    const failed = result.failed.length > 0 ? `, ${result.failed.length} failed` : ''
    const line = `Done: ${plural(result.written.length, 'file')} written${conflicts}${failed}; status ${result.status}.`
    if (result.status === 'ok') reporter.success(line)
    else reporter.info(line)
  }
  return {code: pullExitCode(result), result}
}
