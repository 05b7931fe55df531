/**
 * Permission declarations: `_permissions.yml` of a folder (topic) and the
 * `permissions` key of an article's front matter.
 */
import {readYaml} from '../trust/index.js'
import type {Diagnostic} from './diagnostic.js'
import type {LocalPermissions} from './types.js'

interface Where {
  file: string
  line: number
  /** `inherit` is a topic-only setting. */
  allowInherit: boolean
  /** Line of a key inside the declaration, when known. */
  lineOf?: (key: string) => number
}

/**
 * Validates a permissions value (`{inherit?, readers?, editors?}`) and
 * returns it normalised (ids sorted, deduplicated), or undefined when invalid.
 */
export function readPermissions(value: unknown, where: Where, diagnostics: Diagnostic[]): LocalPermissions | undefined {
  const lineOf = where.lineOf ?? (() => where.line)
  const error = (message: string, key?: string): undefined => {
    diagnostics.push({
      severity: 'error',
      file: where.file,
      line: key ? lineOf(key) : where.line,
      message,
      rule: 'permissions-invalid'
    })
    return undefined
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return error('Permissions must be a mapping with `readers` and `editors` lists of user ids')
  }
  const record = value as Record<string, unknown>
  const known = where.allowInherit ? ['inherit', 'readers', 'editors'] : ['readers', 'editors']
  for (const key of Object.keys(record)) {
    if (!known.includes(key)) {
      return error(
        key === 'inherit'
          ? "`inherit` applies to topics only (set it in the folder's `_permissions.yml`)"
          : `Unknown permissions key \`${key}\` (expected ${known.join(', ')})`,
        key
      )
    }
  }
  const result: LocalPermissions = {readers: [], editors: []}
  if ('inherit' in record) {
    if (typeof record.inherit !== 'boolean') return error('`inherit` must be true or false', 'inherit')
    result.inherit = record.inherit
  }
  for (const key of ['readers', 'editors'] as const) {
    const list = record[key]
    if (list === undefined || list === null) continue
    if (!Array.isArray(list)) return error(`\`${key}\` must be a list of numeric user ids`, key)
    const ids: number[] = []
    for (const entry of list) {
      const id = typeof entry === 'string' && /^\d+$/.test(entry.trim()) ? Number(entry) : entry
      if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) {
        return error(`\`${key}\` holds ${JSON.stringify(entry)}, which is not a numeric user id`, key)
      }
      ids.push(id)
    }
    result[key] = [...new Set(ids)].sort((a, b) => a - b)
  }
  return result
}

/** Parses the text of a `_permissions.yml` file (at `file`). */
export function parsePermissionsFile(
  text: string,
  file: string,
  diagnostics: Diagnostic[]
): LocalPermissions | undefined {
  const read = readYaml(text)
  if (!read.ok) {
    diagnostics.push({
      severity: 'error',
      file,
      line: read.line,
      ...(read.column === undefined ? {} : {column: read.column}),
      message: `Invalid YAML: ${read.message}`,
      rule: 'permissions-yaml'
    })
    return undefined
  }
  const lineOf = (key: string): number => read.lineOf(read.document.get(key, true))
  return readPermissions(read.data, {file, line: 1, allowInherit: true, lineOf}, diagnostics)
}

/** A stable string form of permissions, for hashing and comparing. */
export function permissionsKey(permissions: LocalPermissions): string {
  return JSON.stringify({
    inherit: permissions.inherit ?? null,
    readers: permissions.readers,
    editors: permissions.editors
  })
}
