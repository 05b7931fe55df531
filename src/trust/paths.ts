/** Whether a path lies inside a folder: the comparison every containment rule of kbsync makes. */
import path from 'node:path'

/** Whether `target` lies inside `root` or is `root` (both absolute; real paths when links matter). */
export function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target)
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))
}
