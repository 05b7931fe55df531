/** Folder snapshots for the pull suites: which files a pull wrote. */
import {readdir, readFile, stat} from 'node:fs/promises'
import path from 'node:path'

/** Every file under `dir` (dot-entries left out) with its bytes as latin1 text. */
export async function snapshot(dir: string, prefix = ''): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const name of (await readdir(path.join(dir, prefix))).sort()) {
    if (name.startsWith('.')) continue
    const relative = prefix ? `${prefix}/${name}` : name
    if ((await stat(path.join(dir, relative))).isDirectory()) Object.assign(out, await snapshot(dir, relative))
    else out[relative] = await readFile(path.join(dir, relative), 'latin1')
  }
  return out
}

/** The paths whose content differs between two snapshots (added and removed included), sorted. */
export function changed(before: Record<string, string>, after: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)])
  return [...keys].filter((key) => before[key] !== after[key]).sort()
}
