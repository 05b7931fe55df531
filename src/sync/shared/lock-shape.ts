/**
 * What pull knows of the lock (config `lock`, `push/lock.ts`): permissions
 * that are exactly the lock of the publishing account the state recorded are
 * the platform's, never a declaration to write into a file.
 */
import type {LocalPermissions} from '../../local/index.js'

/** Whether `declared` (as read from the platform) is the lock of `publisher`: that account the only editor, no readers of its own, a topic still inheriting. */
export function isLockOf(declared: LocalPermissions | undefined, publisher: number | undefined): boolean {
  if (!declared || publisher === undefined) return false
  return (
    declared.inherit !== false &&
    declared.readers.length === 0 &&
    declared.editors.length === 1 &&
    declared.editors[0] === publisher
  )
}
