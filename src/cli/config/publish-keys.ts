/**
 * The configuration keys of what a push does to the platform beyond the
 * folder's documents (issue 33): orphans deleted, archived or kept; the
 * notice at the top of each published article; the lock of published items.
 */
import type {KeyDefinition} from './keys.js'

/** The keys of orphans, notice and lock (part of `keyDefinitions`). */
export const publishKeyDefinitions: KeyDefinition[] = [
  {
    key: 'onOrphan',
    kind: 'choice',
    choices: ['delete', 'archive', 'keep'],
    env: 'KBSYNC_ON_ORPHAN',
    flag: 'on-orphan',
    doc: 'items under the root that kbsync created and no file maps to any more: "keep" (default) lists them, "delete" deletes them (what --prune does), "archive" moves them under the archive topic'
  },
  {
    key: 'archiveTopic',
    kind: 'string',
    env: 'KBSYNC_ARCHIVE_TOPIC',
    doc: 'the title of the topic at the root that onOrphan "archive" moves orphans into (default "Archive"; created when missing; push, status and pull leave it and what it holds alone)'
  },
  {
    key: 'notice',
    kind: 'boolean-or-string',
    env: 'KBSYNC_NOTICE',
    doc: 'a hint block at the top of each published article: true for "This page is published from git; edit it there." (with a link to the file when repoUrl is set), or the text to show; pull never writes it back'
  },
  {
    key: 'lock',
    kind: 'boolean',
    env: 'KBSYNC_LOCK',
    doc: 'set the editors of each published item to the publishing account (a permission file that names editors wins, with a warning); pull never writes the lock back'
  }
]
