/**
 * A conflict leaves the remote untouched and puts the remote version beside
 * the local file as `<name>.remote.md` (the scanner skips such files), so the
 * writer can merge by hand and push again.
 */
import {writeFile} from 'node:fs/promises'
import path from 'node:path'
import {stringify} from 'yaml'
import {toGfmText} from '../local/index.js'
import type {RunState} from './item-step.js'
import {toDetail} from './remote.js'
import type {PlanOp} from './types.js'

/** Name of the conflict file beside `file` (`a/b.md` -> `a/b.remote.md`). */
export function conflictFileOf(file: string): string {
  return file.replace(/\.md$/, '') + '.remote.md'
}

/** Writes the remote version of a conflicting document; returns its repo-relative path. */
export async function writeConflictFile(run: RunState, op: PlanOp): Promise<string> {
  const node = run.context.scan.byPath[op.path]!
  const id = op.remoteId!
  const detail = run.context.remote.details[id] ?? toDetail(await run.options.client.getItem(id))
  const file = conflictFileOf(node.file ?? `${node.path}/_index.md`)
  const front = stringify({kb_id: id, title: detail.title, remote_version: detail.version, remote_updated_at: detail.updatedAt})
  const text = `---\n${front}---\n\n${toGfmText(detail.body).trimEnd()}\n`
  await writeFile(path.join(run.context.scan.dir, file), text)
  return file
}
