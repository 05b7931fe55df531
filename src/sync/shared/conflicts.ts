/**
 * A conflict leaves the remote untouched and puts the remote version beside
 * the local file as `<name>.remote.md` (the scanner skips such files), so the
 * writer can merge by hand and push again. The copy is exactly the file a
 * pull would write for that document (same front matter, links made
 * relative), so taking the platform's version is moving it over the file:
 * the next pull finds the file already holds the remote version. The copy
 * is written inside the folder (`writeFileInside`): a planted
 * `<name>.remote.md` link is never written through.
 */
import {writeFileInside, type ScanResult} from '../../local/index.js'
import {pullBody} from './document-body.js'
import {documentText} from './document-files.js'
import {documentFile} from './document-layout.js'
import {toDetail, type RemoteSnapshot} from './remote.js'
import type {PlanOp, SyncClient} from './types.js'

/** What writing a conflict copy reads: the scan, the remote snapshot, the ids known now, and a client to read the item. */
export interface ConflictSource {
  context: {scan: ScanResult; remote: RemoteSnapshot}
  options: {client: Pick<SyncClient, 'getItem'>}
  /** Remote id by local path. */
  ids: ReadonlyMap<string, string>
}

/** Name of the conflict file beside `file` (`a/b.md` -> `a/b.remote.md`). */
export function conflictFileOf(file: string): string {
  return file.replace(/\.md$/, '') + '.remote.md'
}

/** Writes the remote version of a conflicting document; returns its repo-relative path. */
export async function writeConflictFile(run: ConflictSource, op: PlanOp): Promise<string> {
  const {scan, remote} = run.context
  const node = scan.byPath[op.path]!
  const id = op.remoteId!
  const detail = remote.details[id] ?? toDetail(await run.options.client.getItem(id))
  const file = node.file ?? documentFile('topic', node.path)
  const pathOf = new Map([...run.ids].map(([docPath, itemId]) => [itemId, docPath]))
  const documentOf = (kind: 'article' | 'topic', target: string): string | undefined => {
    if (kind === 'topic' && target === remote.rootTopicId) return '_index.md'
    const at = pathOf.get(target)
    return at === undefined || scan.byPath[at]?.kind !== kind ? undefined : documentFile(kind, at)
  }
  // As pull writes a conflict copy: files stay URLs (nothing is downloaded for a copy).
  const body = pullBody(detail.body, detail.title, {file, documentOf, assetOf: () => undefined}).text
  const permissions = node.kind === 'article' ? node.permissions : undefined
  const conflict = conflictFileOf(file)
  writeFileInside(scan.dir, conflict, documentText({title: detail.title, id, permissions}, body))
  return conflict
}
