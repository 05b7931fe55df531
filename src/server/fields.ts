/**
 * The types of the fields of JSON request bodies. A field of the wrong type
 * (an object where an id belongs, a string where a flag does) is a 400
 * `knowledge_base_invalid_request` naming the field, checked before the
 * store sees the request, so no such value reaches code that would trip on
 * it. Missing or blank titles and bodies keep their own codes, and `type`
 * and the permissions fields are checked with their meaning, in the store.
 */
import {invalidRequest} from './errors.js'

type Rule = {valid: (value: unknown) => boolean; expected: string}

const isNullish = (value: unknown) => value === undefined || value === null

const rules = {
  body: {valid: (v) => isNullish(v) || typeof v === 'string', expected: 'a string'},
  parent_topic_id: {valid: (v) => isNullish(v) || typeof v === 'string', expected: 'a topic id (a string) or null'},
  parent_topic_id_changed: {valid: (v) => v === undefined || typeof v === 'boolean', expected: 'true or false'}
} satisfies Record<string, Rule>

/** The fields each JSON route checks. */
export const routeFields = {
  create: ['body', 'parent_topic_id'],
  update: ['body', 'parent_topic_id', 'parent_topic_id_changed']
} as const satisfies Record<string, ReadonlyArray<keyof typeof rules>>

/**
 * `input` without its fields set to `null`, but for `kept`: the platform
 * reads `null` as an absent field (the official Python client sends every
 * field it was not given as `null`), except where null has a meaning of its
 * own, like `parent_topic_id` (the root).
 */
export function nullsAsAbsent<T extends object>(input: T, kept: readonly string[] = []): T {
  return Object.fromEntries(Object.entries(input).filter(([key, value]) => value !== null || kept.includes(key))) as T
}

/** Returns `input` when each of `fields` has its type; else throws a 400 naming the first that has not. */
export function checkFields<T extends object>(input: T, fields: ReadonlyArray<keyof typeof rules>): T {
  const values = input as Record<string, unknown>
  for (const field of fields) {
    const rule: Rule = rules[field]
    if (!rule.valid(values[field]))
      throw invalidRequest(`${field} must be ${rule.expected}, not ${describe(values[field])}.`)
  }
  return input
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`
  return `${typeof value} ${String(value)}`
}
