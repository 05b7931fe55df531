/**
 * `push --write-ids`: pins a new item to its remote id by writing `kb_id`
 * into the front matter of its file (creating the block when there is none),
 * leaving every other byte of the file as it was. The file is written anew
 * (temporary file + rename) inside the folder: a link at its name is replaced
 * by the file, never written through.
 */
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {writeFileInside} from './inside.js'

/** Writes `kb_id: <id>` into the front matter of the file `file` (relative) of the folder `dir`. */
export async function writeKbId(dir: string, file: string, id: string): Promise<void> {
  let text: string
  try {
    text = await readFile(path.join(dir, file), 'utf8')
  } catch {
    text = ''
  }
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  // Blank lines may come before the block, as the scan reads it (`front-matter-fence.ts`): they stay.
  const match = /^((?:[ \t]*\r?\n)*)---[ \t]*\r?\n([\s\S]*?\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(text)
  let next: string
  if (match) {
    const yaml = match[2] ?? ''
    const line = /^kb_id:.*$/m
    const updated = line.test(yaml) ? yaml.replace(line, `kb_id: ${id}`) : `${yaml}kb_id: ${id}${eol}`
    next = `${match[1]}---${eol}${updated}---${eol}${text.slice(match[0].length)}`
  } else {
    next = `---${eol}kb_id: ${id}${eol}---${eol}${text}`
  }
  if (next !== text) writeFileInside(dir, file, next)
}
