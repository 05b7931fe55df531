/**
 * The files of an embedded knowledge base beside its data file
 * (`.kbsync/local-kb.json`): the snapshot, its log and temp file, and the
 * uploaded files' folder with every file in it. The server reads and writes
 * them through the paths it is given; a repository may carry any of them as
 * a link to a file of the user's (the log is appended to and truncated, a
 * stored file is served to a pull, which writes it into the folder). So
 * each is checked, before the server starts, like every write of kbsync
 * (`local/inside.ts`): a link that leaves the folder is refused by name.
 */
import {readdirSync} from 'node:fs'
import path from 'node:path'

/**
 * The paths (relative to the synced folder `dir`) of the embedded knowledge
 * base whose data file is `dataFile` (relative too); `filesDir` is the
 * server's own rule for where the uploaded files go (`server/persist.ts`,
 * passed in: remote runs never load the server's code).
 */
export function embeddedFiles(dir: string, dataFile: string, filesDir: (dataPath: string) => string): string[] {
  const files = filesDir(dataFile)
  let stored: string[] = []
  try {
    // Only names are read here; a link at the folder itself is refused with the rest, before anything is opened.
    stored = readdirSync(path.join(dir, files)).map((name) => path.join(files, name))
  } catch {
    // No files folder yet.
  }
  return [dataFile, `${dataFile}.log`, `${dataFile}.tmp`, files, ...stored]
}
