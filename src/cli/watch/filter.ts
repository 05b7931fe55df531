/**
 * Which paths watch mode reacts to: what the scanner takes part in (no
 * dot-entries, no `node_modules`, `.kbsyncignore` honoured) minus the extra
 * `ignore` patterns of the config; never kbsync's own `.kbsync/` files or the
 * `.remote.md` files conflicts leave, which would loop.
 */
import ignore, {type Ignore} from 'ignore'
import {isExcluded, loadIgnore} from '../../local/walk.js'

/** Decides whether an event path (relative, with `/`) is worth a push. */
export interface PathFilter {
  relevant(relative: string, isDir?: boolean): boolean
  /** Re-reads `.kbsyncignore` (after it changed). */
  reload(): Promise<void>
}

/** The filter of the folder `root` with the config's extra `patterns`. */
export async function createPathFilter(root: string, patterns: readonly string[] = []): Promise<PathFilter> {
  const extra: Ignore = ignore().add([...patterns])
  let rules = await loadIgnore(root)
  return {
    relevant(relative, isDir = false) {
      if (relative === '' || relative === '.kbsyncignore') return true
      if (relative.endsWith('.remote.md')) return false
      if (isExcluded(rules, relative, isDir)) return false
      return !extra.ignores(isDir ? relative + '/' : relative)
    },
    async reload() {
      rules = await loadIgnore(root)
    }
  }
}
