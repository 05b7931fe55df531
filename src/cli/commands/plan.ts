/**
 * `kbsync plan`: what a push would do, grouped by action, without writing.
 * The text formatters below are shared with `push` (and the target helpers
 * with `pull`); every line goes through the shared reporter.
 */
import path from 'node:path'
import type {Command, CommandContext} from '../command.js'
import {loadConfig, type KbsyncConfig} from '../config.js'
import {connect} from '../connect.js'
import {exitCodes} from '../exit-codes.js'
import {planSummaryMarkdown, reporterFor, type Reporter} from '../output/index.js'
import type {Diagnostic} from '../../local/index.js'
import {planPush, type OpKind, type PlanOp, type PushOptions, type PushPlan, type SyncClient} from '../../sync/index.js'

/** A connection to the knowledge base the commands talk to. */
export interface SyncTarget {
  client: SyncClient
  /** Where the pushes go, for the first line of output (never the token). */
  description: string
  close(): Promise<void>
}

/** Everything a sync command starts with: config, reporter, connection. */
export interface SyncSession {
  config: KbsyncConfig
  reporter: Reporter
  target: SyncTarget
}

/**
 * Loads the config (flags > environment > file > defaults), makes the
 * reporter and connects: to the API when one is configured, else to the
 * embedded local knowledge base (the command says which).
 */
export async function openSession(context: CommandContext): Promise<SyncSession> {
  const positional = context.positionals[0]
  const config = await loadConfig({cwd: context.cwd, env: context.env, flags: context.values, ...(positional ? {dir: positional} : {})})
  const reporter = reporterFor(context, {dir: config.dir, secrets: [config.token, config.securityKey]})
  const target = await connect(config, {cwd: context.cwd})
  return {config, reporter, target}
}

/** Opens the target for the folder `dir` (used by `pull`). */
export async function openTarget(context: CommandContext, dir: string): Promise<SyncTarget> {
  const config = await loadConfig({cwd: context.cwd, env: context.env, flags: context.values, dir})
  return connect(config, {cwd: context.cwd})
}

/** The folder argument, resolved against the working directory. */
export function folderOf(context: CommandContext): string {
  return path.resolve(context.cwd, context.positionals[0] ?? '.')
}

/** The `--root-topic` option or `KBSYNC_ROOT_TOPIC`; null for the knowledge-base root. */
export function rootTopicOf(context: CommandContext): string | null {
  const value = context.values['root-topic'] ?? context.env.KBSYNC_ROOT_TOPIC
  return typeof value === 'string' && value !== '' ? value : null
}

/** The engine options a config gives (plus the command's own). */
export function pushOptionsOf(session: SyncSession, extra: Partial<PushOptions> = {}): PushOptions {
  const {config, target} = session
  return {
    dir: config.dir,
    client: target.client,
    rootTopicId: config.rootTopic,
    prune: config.prune,
    maxDeletions: config.maxDeletions,
    concurrency: config.concurrency,
    ...extra
  }
}

const order: OpKind[] = ['create', 'update', 'move', 'rename', 'permissions', 'upload', 'delete', 'conflict', 'drift']
const signs: Record<OpKind, string> = {create: '+', update: '~', move: '>', rename: '~', permissions: '*', upload: '^', delete: '-', conflict: '!', drift: '?'}

/** One line for an op. */
export function formatOp(op: PlanOp): string {
  const what = op.type ?? 'file'
  const target = op.path === '' ? '(root)' : op.path
  return `  ${signs[op.op]} ${what.padEnd(7)} ${target}  "${op.title}"${op.reason ? `  (${op.reason})` : ''}`
}

/** The summary line of a plan. */
export function summaryLine(plan: PushPlan): string {
  const parts = order.filter((kind) => plan.summary[kind] > 0).map((kind) => `${plan.summary[kind]} ${kind}`)
  return parts.length === 0 ? 'No changes: the knowledge base matches the folder.' : `Plan: ${parts.join(', ')}.`
}

/** The plan as text, grouped by action. */
export function formatPlan(plan: PushPlan, target: string): string {
  const lines = [`Plan for ${plan.dir} -> ${target}, root ${plan.rootTopicId ?? '(knowledge-base root)'}`]
  for (const kind of order) {
    const ops = plan.ops.filter((op) => op.op === kind)
    if (ops.length === 0) continue
    lines.push('', `${kind} (${ops.length}):`, ...ops.map(formatOp))
  }
  const listed = plan.orphans.filter((o) => !plan.ops.some((op) => op.op === 'delete' && op.remoteId === o.remoteId))
  if (listed.length > 0) {
    lines.push('', `not in the folder (${listed.length}; deleted only with --prune, and only where marked prunable):`)
    for (const orphan of listed) lines.push(`    ${orphan.type.padEnd(7)} ${orphan.remoteId}  "${orphan.title}"  ${orphan.prunable ? 'prunable' : 'kept'}: ${orphan.reason}`)
  }
  if (plan.needsConfirmation) lines.push('', `${plan.summary.delete} deletions: more than allowed without --yes.`)
  lines.push('', summaryLine(plan))
  return lines.join('\n') + '\n'
}

/** Prints diagnostics to stderr; returns whether there was an error. */
export function reportDiagnostics(context: CommandContext, diagnostics: Diagnostic[]): boolean {
  return reporterFor(context).diagnostics(diagnostics)
}

/** Exit code of a plan: invalid input, conflicts, pending changes (with --exit-code). */
export function planExitCode(plan: PushPlan, exitCode: boolean): number {
  if (plan.blocked) return exitCodes.invalid
  if (plan.summary.conflict > 0) return exitCodes.conflict
  const changes = order.filter((kind) => kind !== 'drift' && kind !== 'conflict').some((kind) => plan.summary[kind] > 0)
  return exitCode && changes ? exitCodes.changesPending : exitCodes.ok
}

export const planCommand: Command = {
  name: 'plan',
  summary: 'show what a push would change, without writing',
  usage: 'kbsync plan [DIR] [--json] [--root-topic ID] [--prune] [--exit-code]',
  description: `Scans DIR (default: the current folder), reads the knowledge base and prints
what \`kbsync push\` would do, grouped by action, with a summary line.

Options:
  --json           the plan as JSON (schema in docs/sync.md)
  --root-topic ID  the topic the folder maps to (default: the knowledge-base root)
  --prune          also plan deletions of items no file maps to
  --exit-code      exit 4 when there are changes to push

Exit codes: 0 nothing to do (or changes without --exit-code), 2 invalid input,
3 conflicts with edits made on the platform, 4 changes pending (--exit-code).`,
  examples: ['kbsync plan docs', 'kbsync plan docs --json > plan.json', 'kbsync plan docs --exit-code --root-topic OJHEAFQ26YT'],
  options: {
    json: {type: 'boolean'},
    'root-topic': {type: 'string'},
    prune: {type: 'boolean'},
    'exit-code': {type: 'boolean'},
    config: {type: 'string'},
    'api-url': {type: 'string'},
    'max-deletions': {type: 'string'},
    quiet: {type: 'boolean'},
    verbose: {type: 'boolean'}
  },
  async run(context) {
    const session = await openSession(context)
    const {reporter, target} = session
    try {
      const plan = await planPush(pushOptionsOf(session))
      reporter.diagnostics(plan.diagnostics)
      if (context.values.json === true) reporter.json(plan)
      else reporter.info(formatPlan(plan, target.description).trimEnd())
      await reporter.stepSummary(planSummaryMarkdown(plan, {target: target.description}))
      return planExitCode(plan, context.values['exit-code'] === true)
    } finally {
      await target.close()
    }
  }
}
