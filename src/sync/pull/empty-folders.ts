/** Folders a pull leaves empty (an `_assets` folder whose files moved or went, a deleted topic's folder). */
import {removeEmptyFolderInside} from '../../local/index.js'

/** Removes the folder `folder` of `dir` when it is empty; else (or when kbsync may not touch it) leaves it. */
export function removeIfEmpty(dir: string, folder: string): void {
  try {
    removeEmptyFolderInside(dir, folder)
  } catch {
    // Not empty (or not a folder kbsync may touch): left as it is.
  }
}
