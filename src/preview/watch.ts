/**
 * Watches the folder (chokidar) and calls back once per burst of changes:
 * an editor's save is often several events (write, rename, chmod).
 */
import path from 'node:path'
import {watch, type FSWatcher} from 'chokidar'

/** A running watcher. */
export interface FolderWatcher {
  close(): Promise<void>
}

/** Whether a path inside the folder takes no part (dot-entries, `node_modules`), as the scanner decides too. */
function ignored(root: string, file: string): boolean {
  const relative = path.relative(root, file)
  if (relative === '' || relative === '.kbsyncignore') return false
  return relative.split(path.sep).some((segment) => segment === 'node_modules' || (segment.startsWith('.') && segment !== '.'))
}

/**
 * Watches `root` and calls `onChange` with the repo-relative paths changed,
 * `quietMs` after the last event of a burst. Resolves once watching.
 */
export async function watchFolder(root: string, onChange: (paths: string[]) => void, quietMs = 40): Promise<FolderWatcher> {
  const watcher: FSWatcher = watch(root, {ignoreInitial: true, ignored: (file: string) => ignored(root, file)})
  let pending = new Set<string>()
  let timer: NodeJS.Timeout | undefined
  const flush = () => {
    timer = undefined
    const paths = [...pending].sort()
    pending = new Set()
    onChange(paths)
  }
  watcher.on('all', (_event: string, file: string) => {
    pending.add(path.relative(root, file).split(path.sep).join('/'))
    if (timer) clearTimeout(timer)
    timer = setTimeout(flush, quietMs)
  })
  await new Promise<void>((resolve, reject) => {
    watcher.once('ready', () => resolve())
    watcher.once('error', reject)
  })
  // A later error (a folder that vanished, too many watches) must not end the preview; the next scan shows the state.
  watcher.on('error', () => undefined)
  return {
    async close() {
      if (timer) clearTimeout(timer)
      await watcher.close()
    }
  }
}
