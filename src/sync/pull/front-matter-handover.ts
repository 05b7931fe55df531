/**
 * The front matter of each document a pull writes, handed to the check
 * after the pull (`handOverFrontMatter`): its scan reads every written file
 * again, and parsing the YAML kbsync has just written from known fields
 * cost it more than the rest of the file's reading.
 */
import {factsOfRecord, handOverFrontMatter} from '../../local/index.js'
import type {FileFields} from './body-place.js'

const lineBreak = /[\r\n\u0085\u2028\u2029]/

/**
 * Hands over the facts of the front matter `fields` gave the document
 * `text` (`documentText`): a title on one line, no permissions (those are
 * read through the YAML, for their lines); anything else is parsed by the
 * check as before.
 */
export function handOverWrittenFrontMatter(fields: FileFields, text: string): void {
  if (fields.permissions || lineBreak.test(fields.title) || !text.startsWith('---\n')) return
  const end = text.indexOf('\n---\n', 3)
  if (end === -1) return
  // The block as the scan cuts it: the lines between the fences, without the line feed that ends the last.
  const yaml = text.slice(4, end)
  const record = {title: fields.title, ...(fields.id !== undefined ? {kb_id: fields.id} : {})}
  const facts = factsOfRecord(record, yaml.split('\n').length + 2)
  if (facts) handOverFrontMatter(yaml, facts)
}
