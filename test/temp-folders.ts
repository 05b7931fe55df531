/** Temporary folders a test file makes and removes after all its tests. */
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'

/** A maker of folders named `kbsync-<prefix>-…` in the system's temporary folder, and the removal of them all. */
export function temporaryFolders(prefix: string): {make(): Promise<string>; removeAll(): Promise<void>} {
  const made: string[] = []
  return {
    async make() {
      const dir = await mkdtemp(path.join(tmpdir(), `kbsync-${prefix}-`))
      made.push(dir)
      return dir
    },
    async removeAll() {
      for (const dir of made.splice(0)) await rm(dir, {recursive: true, force: true})
    }
  }
}

/** Writes `files` (relative path to text) into `dir`, making their folders. */
export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), {recursive: true})
    await writeFile(path.join(dir, name), text)
  }
}
