/**
 * `kbsync status [DIR]`: what changed locally and on the platform since the
 * last sync, from the engine's plan; writes nothing.
 */
import {oneLine} from '../../trust/index.js'
import {access} from 'node:fs/promises'
import type {Command, CommandContext} from '../command.js'
import {exitCodes} from '../exit-codes.js'
import {plural} from '../output/index.js'
import {orphansLeft} from '../output/plan-text.js'
import {connectionOptions, connectionOptionsHelp, openSession, pushOptionsOf} from '../session.js'
import type {Diagnostic} from '../../local/diagnostic.js'
import {statePath} from '../../local/state.js'
import {planPush, type PushPlan} from '../../sync/index.js'

/** One change in the status. */
export interface StatusEntry {
  /** Local: added, modified, moved, renamed, deleted, permissions, upload. Remote: edited, deleted, added. */
  change: string
  /** `article`, `topic` or `file`. */
  type: string
  /** Folder-relative path; empty for the root or for items no file maps to. */
  path: string
  title: string
  remoteId?: string
  reason: string
}

/** The status as `--json` prints it (schema version 1, see docs/cli.md). */
export interface StatusReport {
  schemaVersion: 1
  dir: string
  target: string
  rootTopicId: string | null
  /** The knowledge base the sync state describes (`known` false: the state knows nothing of it, a first sync there). */
  stateTarget?: {key: string; label: string; known: boolean}
  /** Whether a sync state exists (a sync happened before). */
  synced: boolean
  /** No local change, no remote change, no conflict. */
  clean: boolean
  local: StatusEntry[]
  remote: StatusEntry[]
  conflicts: StatusEntry[]
  diagnostics: Diagnostic[]
}

const localChange: Record<string, string> = {
  create: 'added',
  update: 'modified',
  move: 'moved',
  rename: 'renamed',
  delete: 'deleted',
  archive: 'archived',
  permissions: 'permissions',
  upload: 'upload'
}

/** Sorts a plan into local changes, remote changes and conflicts (pure). */
export function statusFromPlan(plan: PushPlan, meta: {target: string; synced: boolean}): StatusReport {
  const local: StatusEntry[] = []
  const remote: StatusEntry[] = []
  const conflicts: StatusEntry[] = []
  for (const op of plan.ops) {
    const entry = (change: string): StatusEntry => ({
      change,
      type: op.type ?? 'file',
      path: op.path,
      title: op.title,
      ...(op.remoteId ? {remoteId: op.remoteId} : {}),
      reason: op.reason
    })
    if (op.op === 'conflict') conflicts.push(entry('conflict'))
    else if (op.op === 'drift') remote.push(entry('edited'))
    else if (op.op === 'create' && /remote item was deleted/.test(op.reason)) remote.push(entry('deleted'))
    else local.push(entry(localChange[op.op] ?? op.op))
  }
  for (const orphan of orphansLeft(plan)) {
    const base = {type: orphan.type, title: orphan.title, remoteId: orphan.remoteId, reason: orphan.reason}
    // The state knew a path: the file was removed here. Otherwise the item appeared on the platform.
    if (orphan.path !== undefined) local.push({change: 'deleted', path: orphan.path, ...base})
    else remote.push({change: 'added', path: '', ...base})
  }
  return {
    schemaVersion: 1,
    dir: plan.dir,
    target: meta.target,
    rootTopicId: plan.rootTopicId,
    ...(plan.target ? {stateTarget: plan.target} : {}),
    synced: meta.synced,
    clean: local.length + remote.length + conflicts.length === 0,
    local,
    remote,
    conflicts,
    diagnostics: plan.diagnostics
  }
}

/** The line naming the knowledge base the sync state describes (`status`, `plan`); undefined when the plan names none. */
export function stateTargetLine(target: PushPlan['target']): string | undefined {
  if (!target) return undefined
  return `target: ${target.label}${target.known ? '' : ' (the state knows nothing of it yet: a first sync there)'}`
}

/** The status as text. */
export function formatStatus(report: StatusReport): string {
  const lines = [
    `Status of ${report.dir} against ${report.target}, root ${report.rootTopicId ?? '(knowledge-base root)'}${report.synced ? '' : ' (never synced)'}`
  ]
  const targetLine = stateTargetLine(report.stateTarget)
  if (targetLine) lines.push(targetLine)
  const section = (title: string, entries: StatusEntry[]) => {
    if (entries.length === 0) return
    lines.push('', `${title} (${entries.length}):`)
    for (const e of entries)
      lines.push(
        `  ${e.change.padEnd(11)} ${e.type.padEnd(7)} ${oneLine(e.path) || '(no file)'}  "${oneLine(e.title)}"${e.remoteId ? ` ${e.remoteId}` : ''}  (${oneLine(e.reason)})`
      )
  }
  section('Local changes', report.local)
  section('Changes on the platform', report.remote)
  section('Conflicts', report.conflicts)
  lines.push(
    '',
    report.clean
      ? 'Up to date: nothing changed on either side.'
      : `${report.local.length} local, ${report.remote.length} remote, ${plural(report.conflicts.length, 'conflict')}.`
  )
  return lines.join('\n')
}

export const statusCommand: Command = {
  name: 'status',
  summary: 'what changed locally and on the platform since the last sync',
  usage: 'kbsync status [DIR] [--json] [--exit-code] [--root-topic ID] [--prune | --on-orphan MODE]',
  description: `Reads the folder, the sync state and the knowledge base, and lists what
changed locally (added, modified, moved, renamed, deleted files) and on the
platform (edited, deleted or added items) since the last sync, and the
conflicts (changed on both sides). Writes nothing.

Options:
  --json           the status as JSON (schema in docs/cli.md)
  --exit-code      exit 4 when anything changed
  --prune          count deletions as a push with --prune would
  --on-orphan MODE count orphans as a push with it would (archive: the archive topic is not listed)

${connectionOptionsHelp}`,
  examples: ['kbsync status', 'kbsync status docs --json', 'kbsync status --exit-code || echo "out of step"'],
  options: {
    json: {type: 'boolean'},
    'exit-code': {type: 'boolean'},
    prune: {type: 'boolean'},
    'on-orphan': {type: 'string'},
    ...connectionOptions
  },
  async run(context: CommandContext) {
    const session = await openSession(context)
    const {config, reporter, target: connection} = session
    try {
      const synced = await access(statePath(config.dir)).then(
        () => true,
        () => false
      )
      const plan = await planPush(pushOptionsOf(session))
      // A state that knows nothing of this knowledge base is no sync with it.
      const report = statusFromPlan(plan, {
        target: connection.description,
        synced: synced && plan.target?.known !== false
      })
      reporter.diagnostics(plan.diagnostics)
      if (context.values.json === true) reporter.json(report)
      else reporter.info(formatStatus(report))
      if (plan.blocked) return exitCodes.invalid
      if (report.conflicts.length > 0) return exitCodes.conflict
      return context.values['exit-code'] === true && !report.clean ? exitCodes.changesPending : exitCodes.ok
    } finally {
      await connection.close()
    }
  }
}
