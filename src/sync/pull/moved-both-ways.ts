/**
 * A document moved in the folder and on the platform since the last sync:
 * the platform's place is taken (its parent is the item's; the file's place
 * is a path), and the pull says so by name, with how to keep the folder's
 * place instead. Before, the local move was undone without a word.
 */
import type {Diagnostic} from '../../local/index.js'

/** The warning for a document the folder moved from `synced` to `now` and the platform moved to `after`; undefined when only one side moved it. */
export function movedBothWays(synced: string | undefined, now: string, after: string): Diagnostic | undefined {
  if (synced === undefined || synced === now || now === after) return undefined
  return {
    severity: 'warning',
    file: after,
    message: `Moved here (${synced} -> ${now}) and on the platform: the platform's place is taken, the file is now ${after}`,
    hint: `To keep your place, move it back (git mv ${after} ${now}) and push`,
    rule: 'pull-moved-both-ways'
  }
}
