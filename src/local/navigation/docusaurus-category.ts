/**
 * Docusaurus' `_category_.json` / `_category_.yml`: the folder's `label`
 * (its topic title), `position` (its order among its siblings) and
 * `link: {type: doc, id}` (the document that is the folder's own page).
 * Other keys (`collapsed`, `className`, a generated index) mean nothing to
 * the knowledge base. Pure: text in, category out.
 */
import {readYaml} from '../../trust/index.js'
import type {Diagnostic} from '../diagnostic.js'
import type {Category} from './types.js'

/** The names Docusaurus gives the category file of a folder. */
const categoryFileNames = ['_category_.json', '_category_.yml', '_category_.yaml'] as const

/** Whether `name` (a base name) is a Docusaurus category file. */
export function isCategoryFile(name: string): boolean {
  return (categoryFileNames as readonly string[]).includes(name)
}

/** Parses the category file at `file` (JSON or YAML; YAML reads JSON too). */
export function parseCategory(text: string, file: string): {category: Category; problems: Diagnostic[]} {
  const read = readYaml(text)
  const problems: Diagnostic[] = []
  const category: Category = {}
  const fail = (line: number, message: string, hint: string) =>
    problems.push({severity: 'error', file, line, message, hint, rule: 'navigation-category'})
  if (!read.ok) {
    fail(
      read.line,
      `Invalid ${file.endsWith('.json') ? 'JSON' : 'YAML'} in the category file: ${read.message}`,
      'Fix the syntax, e.g. `{"label": "Guides", "position": 2}`'
    )
    return {category, problems}
  }
  const {data, document} = read
  if (data === null || data === undefined) return {category, problems}
  const lineOf = (...keys: string[]): number => read.lineOf(document.getIn(keys, true))
  if (typeof data !== 'object' || Array.isArray(data)) {
    fail(
      1,
      'A category file must hold an object of keys (`label`, `position`, `link`)',
      'Write e.g. `{"label": "Guides", "position": 2}`'
    )
    return {category, problems}
  }
  const record = data as Record<string, unknown>
  if ('label' in record) {
    if ((typeof record.label === 'string' && record.label.trim() !== '') || typeof record.label === 'number')
      category.label = String(record.label).trim()
    else
      fail(lineOf('label'), '`label` must be a non-empty string', 'Write the folder\'s title, e.g. `"label": "Guides"`')
  }
  if ('position' in record) {
    if (typeof record.position === 'number' && Number.isFinite(record.position)) category.position = record.position
    else fail(lineOf('position'), '`position` must be a number', 'Write e.g. `"position": 2` (lower comes first)')
  }
  const link = record.link as Record<string, unknown> | null | undefined
  if (link !== undefined && link !== null) {
    if (typeof link !== 'object' || Array.isArray(link))
      fail(
        lineOf('link'),
        '`link` must be an object such as `{"type": "doc", "id": "intro"}`',
        'Write `"link": {"type": "doc", "id": "<document id>"}` or remove it'
      )
    else if (link.type === 'doc') {
      if (typeof link.id === 'string' && link.id.trim() !== '') category.docId = link.id.trim()
      else
        fail(
          lineOf('link'),
          'A `link` of type `doc` needs the `id` of a document',
          'Write `"link": {"type": "doc", "id": "<document id>"}`'
        )
    }
  }
  return {category, problems}
}
