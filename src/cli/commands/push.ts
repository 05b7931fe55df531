/**
 * `kbsync push`: applies the plan. One line per action (a progress line on a
 * TTY), then a summary; `--dry-run` prints the plan instead.
 */
import type {Command} from '../command.js'
import {exitCodes} from '../exit-codes.js'
import {applyPush, planPush, type PushResult, type SyncEvent} from '../../sync/index.js'
import {folderOf, formatOp, formatPlan, openTarget, planExitCode, planJson, reportDiagnostics, rootTopicOf} from './plan.js'

const verbs: Record<string, string> = {
  create: 'created',
  update: 'updated',
  move: 'moved',
  rename: 'renamed',
  delete: 'deleted',
  permissions: 'set permissions of',
  upload: 'uploaded',
  conflict: 'conflict',
  drift: 'drift, left as is:'
}

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

export const pushCommand: Command = {
  name: 'push',
  summary: 'push a folder of Markdown to the knowledge base',
  usage: 'kbsync push [DIR] [--dry-run] [--prune] [--yes] [--force] [--write-ids] [--root-topic ID] [--json] [--concurrency N]',
  description: `Scans DIR (default: the current folder), plans and applies the changes:
creates, updates, renames, moves, permissions, uploads (each file once).
Invalid input stops the run before any write.

Options:
  --dry-run        print the plan, write nothing (same as kbsync plan)
  --prune          delete items under the root that kbsync created and no file maps to any more
  --yes            confirm more than 10 deletions
  --force          overwrite edits made on the platform since the last push
  --write-ids      write kb_id into the front matter of files whose items were created
  --root-topic ID  the topic the folder maps to (default: the knowledge-base root)
  --json           print the result as JSON
  --concurrency N  parallel requests (default 8)

Exit codes: 0 done, 1 a step failed, 2 invalid input or unconfirmed deletions
(nothing written), 3 conflicts (the remote version is written beside the file
as NAME.remote.md).`,
  examples: ['kbsync push docs', 'kbsync push docs --prune --yes', 'kbsync push docs --dry-run --json'],
  options: {
    'dry-run': {type: 'boolean'},
    prune: {type: 'boolean'},
    yes: {type: 'boolean'},
    force: {type: 'boolean'},
    'write-ids': {type: 'boolean'},
    'root-topic': {type: 'string'},
    json: {type: 'boolean'},
    concurrency: {type: 'string'}
  },
  async run(context) {
    const dir = folderOf(context)
    const concurrency = context.values.concurrency === undefined ? 8 : Number(context.values.concurrency)
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      context.stderr.write('kbsync push: --concurrency must be a positive integer\n')
      return exitCodes.invalid
    }
    const json = context.values.json === true
    const target = await openTarget(context, dir)
    try {
      const tty = context.stdout.isTTY === true && !json
      let total = 0
      let count = 0
      const onEvent = (event: SyncEvent) => {
        if (json) return
        if (event.type === 'done' && !event.skipped) {
          count++
          const line = `${verbs[event.op.op]} ${event.op.type ?? 'file'} ${event.op.path || '(root)'}${event.remoteId ? ` (${event.remoteId})` : ''}${event.note ? `: ${event.note}` : ''}`
          context.stdout.write(tty ? `\r\x1b[K[${count}/${total}] ${line}` : line + '\n')
        } else if (event.type === 'failed') {
          context.stderr.write(`${tty ? '\n' : ''}failed: ${formatOp(event.op).trim()}: ${event.error}\n`)
        } else if (event.type === 'conflict-file') {
          context.stderr.write(`${tty ? '\n' : ''}conflict: ${event.op.path} was edited on the platform and locally; the remote version is in ${event.file}\n`)
        } else if (event.type === 'done' && event.op.op === 'drift') {
          context.stderr.write(`${tty ? '\n' : ''}drift: ${event.op.path}: ${event.op.reason}\n`)
        }
      }
      const options = {
        dir,
        client: target.client,
        rootTopicId: rootTopicOf(context),
        prune: context.values.prune === true,
        force: context.values.force === true,
        yes: context.values.yes === true,
        writeIds: context.values['write-ids'] === true,
        concurrency,
        onEvent
      }
      const plan = await planPush(options)
      reportDiagnostics(context, plan.diagnostics)
      if (context.values['dry-run']) {
        context.stdout.write(json ? planJson(plan) : formatPlan(plan, target.description))
        return planExitCode(plan, false)
      }
      if (!json) context.stdout.write(`Pushing ${dir} -> ${target.description}, root ${plan.rootTopicId ?? '(knowledge-base root)'}\n`)
      total = plan.ops.filter((op) => op.op !== 'conflict' && op.op !== 'drift').length
      const result = await applyPush(plan, options)
      if (result.status === 'refused') {
        context.stderr.write(`kbsync push: ${plan.summary.delete} deletions planned, more than 10: run again with --yes to confirm. Nothing was written.\n`)
      }
      if (json) {
        context.stdout.write(JSON.stringify({status: result.status, writes: result.writes, done: result.done, skipped: result.skipped, failed: result.failed, written: result.written, plan}, null, 2) + '\n')
      } else {
        if (tty && count > 0) context.stdout.write('\n')
        const failed = result.failed.length > 0 ? `, ${result.failed.length} failed` : ''
        context.stdout.write(`Done: ${result.done.length} steps, ${result.writes} write requests${failed}; status ${result.status}.\n`)
      }
      return pushExitCode(result)
    } finally {
      await target.close()
    }
  }
}
