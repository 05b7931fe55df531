/**
 * The texts a pull writes, and writing them atomically: a document file is
 * front matter (`title`, `kb_id`, an article's `permissions`) and the body;
 * a topic whose permissions are not inherited gets `_permissions.yml`.
 */
import {existsSync} from 'node:fs'
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {stringify} from 'yaml'
import {writeFileInside, type LocalPermissions} from '../../local/index.js'

/** The text of a document file. */
export function documentText(
  fields: {title: string; id?: string; permissions?: LocalPermissions | undefined},
  body: string
): string {
  let yaml = stringify({title: fields.title, ...(fields.id !== undefined ? {kb_id: fields.id} : {})}, {lineWidth: 0})
  const people = fields.permissions
  if (people)
    yaml += `permissions:\n  readers: [${people.readers.join(', ')}]\n  editors: [${people.editors.join(', ')}]\n`
  return body === '' ? `---\n${yaml}---\n` : `---\n${yaml}---\n\n${body}`
}

/** The text of a topic's `_permissions.yml`. */
export function permissionsText(permissions: LocalPermissions): string {
  return `inherit: ${permissions.inherit ?? false}\nreaders: [${permissions.readers.join(', ')}]\neditors: [${permissions.editors.join(', ')}]\n`
}

/**
 * Writes `text` to the file `file` (relative) of the folder `dir` through a
 * temporary file and a rename, creating folders, never through a link that
 * leaves the folder; returns whether the content changed.
 */
export async function writeAtomic(dir: string, file: string, text: string): Promise<boolean> {
  const before = await readText(path.join(dir, file))
  if (before === text) return false
  writeFileInside(dir, file, text)
  return true
}

/** The text of a file, or undefined when there is none. */
export async function readText(file: string): Promise<string | undefined> {
  // A first pull asks this of every file it writes: a failed read costs an error object and its stack (35 us each).
  if (!existsSync(file)) return undefined
  try {
    return await readFile(file, 'utf8')
  } catch {
    return undefined
  }
}
