/** A synced folder with a folder beside it that the tests of "nothing written outside" watch. */
import {mkdir} from 'node:fs/promises'
import path from 'node:path'
import type {temporaryFolders} from './temp-folders.js'

/** Makes `docs` (the synced folder) and `outside` (beside it, outside the folder) in a new folder of `folders`. */
export async function folderAndOutside(
  folders: ReturnType<typeof temporaryFolders>
): Promise<{dir: string; outside: string}> {
  const base = await folders.make()
  const dir = path.join(base, 'docs')
  const outside = path.join(base, 'outside')
  await mkdir(dir)
  await mkdir(outside)
  return {dir, outside}
}
