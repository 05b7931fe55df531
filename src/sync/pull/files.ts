/**
 * The texts a pull writes, and writing them atomically: a document file is
 * front matter (`title`, `kb_id`, an article's `permissions`) and the body;
 * a topic whose permissions are not inherited gets `_permissions.yml`.
 */
import {mkdir, readFile, rename, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {stringify} from 'yaml'
import type {LocalPermissions} from '../../local/index.js'

/** The text of a document file. */
export function documentText(fields: {title: string; id: string; permissions?: LocalPermissions | undefined}, body: string): string {
  let yaml = stringify({title: fields.title, kb_id: fields.id}, {lineWidth: 0})
  const people = fields.permissions
  if (people) yaml += `permissions:\n  readers: [${people.readers.join(', ')}]\n  editors: [${people.editors.join(', ')}]\n`
  return body === '' ? `---\n${yaml}---\n` : `---\n${yaml}---\n\n${body}`
}

/** The text of a topic's `_permissions.yml`. */
export function permissionsText(permissions: LocalPermissions): string {
  return `inherit: ${permissions.inherit ?? false}\nreaders: [${permissions.readers.join(', ')}]\neditors: [${permissions.editors.join(', ')}]\n`
}

let counter = 0

/** Writes `text` to `file` (absolute) through a temporary file and a rename, creating folders; returns whether the content changed. */
export async function writeAtomic(file: string, text: string): Promise<boolean> {
  const before = await readText(file)
  if (before === text) return false
  await mkdir(path.dirname(file), {recursive: true})
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${counter++}.tmp`)
  await writeFile(temporary, text)
  await rename(temporary, file)
  return true
}

/** The text of a file, or undefined when there is none. */
export async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8')
  } catch {
    return undefined
  }
}

/** Removes a file or folder if present. */
export async function remove(target: string): Promise<void> {
  await rm(target, {recursive: true, force: true})
}
