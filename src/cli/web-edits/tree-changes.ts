/**
 * What a commit changes, read from `git diff-tree -r -z --no-renames`: each
 * path with the blob it holds after (null when deleted). Two changes are the
 * same edit when they write the same blobs at the same paths, which is how a
 * run tells "the branch already proposes this" from "something is new".
 */

/** Path (relative to the repository) -> blob id after the change, or null for a deletion. */
export type TreeChanges = Map<string, string | null>

const zeroId = /^0+$/

/**
 * Reads the `-z` output of `git diff-tree -r --no-renames A B` (or `git diff
 * --raw -z`): records `:mode mode blob blob status NUL path NUL`.
 */
export function parseRawDiff(raw: string): TreeChanges {
  const changes: TreeChanges = new Map()
  const fields = raw.split('\0')
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const meta = fields[index]!.replace(/^\n/, '')
    const file = fields[index + 1]!
    if (!meta.startsWith(':')) continue
    const after = meta.slice(1).split(' ')[3] ?? ''
    changes.set(file, zeroId.test(after) ? null : after)
  }
  return changes
}

/** The changes whose path `keep` accepts. */
export function changesWhere(changes: TreeChanges, keep: (file: string) => boolean): TreeChanges {
  return new Map([...changes].filter(([file]) => keep(file)))
}

/** Whether two changes write the same blobs at the same paths. */
export function sameChanges(a: TreeChanges, b: TreeChanges): boolean {
  if (a.size !== b.size) return false
  for (const [file, blob] of a) if (!b.has(file) || b.get(file) !== blob) return false
  return true
}
