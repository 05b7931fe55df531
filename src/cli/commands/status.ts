/**
 * `kbsync status [DIR]`: what changed locally and on the platform since the
 * last sync, from the engine's plan; writes nothing.
 */
import {oneLine} from '../../trust/index.js'
import {access} from 'node:fs/promises'
import type {Command, CommandContext} from '../command.js'
import {commandSummary} from './catalog.js'
import {exitCodes} from '../exit-codes.js'
import {plural} from '../output/index.js'
import {orphansLeft} from '../output/plan-text.js'
import {connectionOptions, connectionOptionsHelp, openSession, pushOptionsOf} from '../session.js'
import type {Diagnostic} from '../../local/diagnostic.js'
import {statePath} from '../../local/state.js'
import {planStatus, type PermissionChange, type PushPlan} from '../../sync/index.js'

/** One change in the status. */
export interface StatusEntry {
  /** Local: added, modified, moved, renamed, deleted, permissions, upload. Remote: edited, deleted, added, permissions. */
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
  /** The folder has errors: a push refuses it (exit 2) until they are fixed; the changes listed are still true. */
  blocked: boolean
  /** How many entries each list holds. */
  counts: {local: number; remote: number; conflicts: number}
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

/** Permission changes read on the platform, as status entries: to pull, or conflicts with the file's. */
function permissionEntries(changes: readonly PermissionChange[]): {remote: StatusEntry[]; conflicts: StatusEntry[]} {
  const entry = (change: PermissionChange, word: string, reason: string): StatusEntry => ({
    change: word,
    type: change.type,
    path: change.path,
    title: change.title,
    remoteId: change.id,
    reason
  })
  return {
    remote: changes
      .filter((c) => c.side === 'remote')
      .map((c) => entry(c, 'permissions', 'permissions changed on the platform')),
    conflicts: changes
      .filter((c) => c.side === 'conflict')
      .map((c) => entry(c, 'conflict', 'permissions changed on the platform and in the file'))
  }
}

/**
 * Sorts a plan into local changes, remote changes and conflicts (pure);
 * `permissions`: the permission changes read on the platform (a folder that
 * manages them).
 */
export function statusFromPlan(
  plan: PushPlan,
  meta: {target: string; synced: boolean},
  permissions: readonly PermissionChange[] = []
): StatusReport {
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
  const onPlatform = permissionEntries(permissions)
  remote.push(...onPlatform.remote)
  conflicts.push(...onPlatform.conflicts)
  // A push would set the file's permissions over the platform's change: that is the conflict, not a local change.
  const clashing = new Set(onPlatform.conflicts.map((c) => c.path))
  const ownLocal = local.filter((e) => !(e.change === 'permissions' && clashing.has(e.path)))
  return {
    schemaVersion: 1,
    dir: plan.dir,
    target: meta.target,
    rootTopicId: plan.rootTopicId,
    ...(plan.target ? {stateTarget: plan.target} : {}),
    synced: meta.synced,
    clean: ownLocal.length + remote.length + conflicts.length === 0,
    blocked: plan.blocked,
    counts: {local: ownLocal.length, remote: remote.length, conflicts: conflicts.length},
    local: ownLocal,
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
  section('Local changes (a push sends them)', report.local)
  section('Changes on the platform (a pull brings them)', report.remote)
  section('Conflicts (changed on both sides)', report.conflicts)
  const {counts} = report
  lines.push(
    '',
    report.clean
      ? report.blocked
        ? 'Nothing changed on either side, but push refuses this folder until the errors above are fixed.'
        : 'Up to date: nothing changed on either side.'
      : `${counts.local} local, ${counts.remote} remote, ${plural(counts.conflicts, 'conflict')}${report.blocked ? '; push refuses this folder until the errors above are fixed' : ''}.`
  )
  return lines.join('\n')
}

export const statusCommand: Command = {
  name: 'status',
  summary: commandSummary('status'),
  usage:
    'kbsync status [DIR] [--json] [--exit-code] [--broken-links warn|error] [--root-topic ID] [--prune | --on-orphan MODE]',
  description: `Reads the folder, the sync state and the knowledge base, and lists per file
what changed locally (added, modified, moved, renamed, deleted files, permissions:
a push sends them), on the platform (edited, deleted, added items, permissions:
a pull brings them) since the last sync, and the conflicts (changed on both
sides). A folder with errors (a broken link) is listed too: a push refuses it
until they are fixed. In a folder that manages permissions (config permissions),
every item's permissions are read. Writes nothing.

Options:
  --json           the status as JSON (schema in docs/cli.md)
  --exit-code      exit 4 when anything changed
  --prune          count deletions as a push with --prune would
  --on-orphan MODE count orphans as a push with it would (archive: the archive topic is not listed)
  --broken-links warn|error  a link or image whose target does not exist: a warning, or an error
                   that push refuses (default; config brokenLinks), as push takes it

${connectionOptionsHelp}

Exit codes: 0 in sync (or changes pending without --exit-code), 1 runtime failure,
2 invalid input (push refuses the folder; the changes are still listed),
3 conflicts, 4 changes pending (--exit-code).`,
  examples: ['kbsync status', 'kbsync status docs --json', 'kbsync status --exit-code || echo "out of step"'],
  options: {
    json: {type: 'boolean'},
    'exit-code': {type: 'boolean'},
    prune: {type: 'boolean'},
    'on-orphan': {type: 'string'},
    'broken-links': {type: 'string'},
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
      const {plan, permissions} = await planStatus({
        ...pushOptionsOf(session),
        permissions: config.permissions ?? 'auto'
      })
      // A state that knows nothing of this knowledge base is no sync with it.
      const report = statusFromPlan(
        plan,
        {target: connection.description, synced: synced && plan.target?.known !== false},
        permissions
      )
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
