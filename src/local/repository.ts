/**
 * The git repository that holds a folder. Real trees refer to files by
 * their place in the repository (`/docs/assets/x.png`, mdBook's
 * `{{#include ../listings/x.rs}}`), so reading them needs its root.
 */
import {stat} from 'node:fs/promises'
import path from 'node:path'

/**
 * The nearest folder at or above `dir` (absolute) that holds `.git` (a
 * folder, or a file in a worktree or submodule), or undefined when `dir`
 * lies in no repository.
 */
export async function repositoryRoot(dir: string): Promise<string | undefined> {
  let current = path.resolve(dir)
  for (;;) {
    try {
      await stat(path.join(current, '.git'))
      return current
    } catch {
      // Not here: look one level up.
    }
    const parent = path.dirname(current)
    if (parent === current) return undefined
    current = parent
  }
}
