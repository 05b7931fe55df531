/**
 * Watches the folder (the folder's own watcher, by the scan's rules) and
 * calls back once per burst of changes: an editor's save is often several
 * events (write, rename, chmod).
 */
import {createPathFilter, watchTree, type TreeWatcher} from '../local/watch.js'

/** A running watcher. */
export type FolderWatcher = TreeWatcher

/**
 * Watches `root` (less what `.kbsyncignore` and the `ignore` patterns
 * exclude) and calls `onChange` with the repo-relative paths changed,
 * `quietMs` after the last event of a burst; `onWarning` hears each problem
 * of the watcher once. Resolves once watching.
 */
export async function watchFolder(
  root: string,
  onChange: (paths: string[]) => void,
  onWarning: (message: string) => void,
  ignore: readonly string[] = [],
  quietMs = 40
): Promise<FolderWatcher> {
  const filter = await createPathFilter(root, ignore)
  let pending = new Set<string>()
  let timer: NodeJS.Timeout | undefined
  const flush = async () => {
    timer = undefined
    const paths = [...pending].sort()
    pending = new Set()
    if (paths.includes('.kbsyncignore')) await filter.reload()
    onChange(paths)
  }
  const watcher = await watchTree(root, {
    filter,
    onEvent: (_kind, relative) => {
      pending.add(relative)
      if (timer) clearTimeout(timer)
      timer = setTimeout(() => void flush(), quietMs)
    },
    onWarning
  })
  return {
    async close() {
      if (timer) clearTimeout(timer)
      await watcher.close()
    }
  }
}
