/**
 * `kbsync plan`: what a push would do, grouped by action, without writing.
 *
 * The text output lives in the small formatters below (also used by
 * `push`); they are to be replaced by the shared reporter of `src/cli/output/`
 * when it lands. Until `src/cli/config.ts`/`connect.ts` exist, the target is
 * read from the environment (`KBSYNC_API_URL`, `KBSYNC_TOKEN`, ...).
 */
import path from 'node:path'
import type {Command, CommandContext} from '../command.js'
import {exitCodes} from '../exit-codes.js'
import type {Diagnostic} from '../../local/index.js'
import {planPush, type OpKind, type PlanOp, type PushPlan, type SyncClient} from '../../sync/index.js'

/** A connection to the knowledge base the commands talk to. */
export interface SyncTarget {
  client: SyncClient
  /** Where the pushes go, for the first line of output (never the token). */
  description: string
  close(): Promise<void>
}

interface ConnectModule {
  connect?: (config: unknown) => Promise<{client: SyncClient; description: string; close(): Promise<void>}>
}
interface ConfigModule {
  loadConfig?: (options: {cwd: string; env: NodeJS.ProcessEnv; dir?: string; flags?: Record<string, unknown>}) => Promise<unknown> | unknown
}
interface ApiModule {
  KbClient: {fromEnv(env: NodeJS.ProcessEnv, overrides?: Record<string, unknown>): SyncClient & {close?(): Promise<void>}}
}

/** Imports a module that may not exist yet (it is being built in parallel). */
async function optional<T>(specifier: string): Promise<T | undefined> {
  try {
    return (await import(specifier)) as T
  } catch (error) {
    if ((error as {code?: string}).code === 'ERR_MODULE_NOT_FOUND') return undefined
    throw error
  }
}

/**
 * Opens the target: the shared `connect` (embedded local knowledge base when
 * no API URL is configured) when available, else the API client from the
 * environment.
 */
export async function openTarget(context: CommandContext, dir: string): Promise<SyncTarget> {
  const connectModule = await optional<ConnectModule>('../connect.js')
  const configModule = await optional<ConfigModule>('../config.js')
  if (connectModule?.connect && configModule?.loadConfig) {
    const config = await configModule.loadConfig({cwd: context.cwd, env: context.env, dir, flags: context.values})
    return connectModule.connect(config)
  }
  const url = context.env.KBSYNC_API_URL
  if (!url) throw new Error('No API URL configured: set KBSYNC_API_URL and KBSYNC_TOKEN (or KBSYNC_LOGIN and KBSYNC_SECURITY_KEY)')
  const api = await optional<ApiModule>('../../api/index.js')
  if (!api) throw new Error('The API client is not available in this build')
  const client = api.KbClient.fromEnv(context.env)
  return {client, description: new URL(url).origin, close: async () => client.close?.()}
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

/** One diagnostic as `file:line:column: severity: message [rule]`. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.file ? `${d.file}${d.line ? `:${d.line}${d.column ? `:${d.column}` : ''}` : ''}: ` : ''
  return `${where}${d.severity}: ${d.message}${d.rule ? ` [${d.rule}]` : ''}${d.hint ? `\n  hint: ${d.hint}` : ''}`
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
  for (const d of diagnostics) context.stderr.write(formatDiagnostic(d) + '\n')
  return diagnostics.some((d) => d.severity === 'error')
}

/** The plan as JSON for tooling (the schema is in docs/sync.md). */
export function planJson(plan: PushPlan): string {
  return JSON.stringify(plan, null, 2) + '\n'
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
    'exit-code': {type: 'boolean'}
  },
  async run(context) {
    const dir = folderOf(context)
    const target = await openTarget(context, dir)
    try {
      const plan = await planPush({dir, client: target.client, rootTopicId: rootTopicOf(context), prune: context.values.prune === true})
      reportDiagnostics(context, plan.diagnostics)
      context.stdout.write(context.values.json ? planJson(plan) : formatPlan(plan, target.description))
      return planExitCode(plan, context.values['exit-code'] === true)
    } finally {
      await target.close()
    }
  }
}
