/**
 * Reading a plan back: the JSON `kbsync plan --json` prints (extra fields,
 * such as `diagnosticCounts`, are ignored). Whatever is wrong is named by
 * its place in the file (`ops[3].op`), so a hand-edited or truncated file
 * is refused before anything is read or written.
 */
import type {OpKind, PushPlan} from '../shared/types.js'
import {opKinds} from './plan.js'

/** A file that is not a plan `kbsync plan --json` wrote; the message names the file and what is wrong. */
class PlanFileError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string
  ) {
    super(`${file}: ${problem}`)
    this.name = 'PlanFileError'
  }
}

type Json = Record<string, unknown>

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The first problem of `value` as a plan, with its place, or undefined. */
function planProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'not a plan: expected the JSON object `kbsync plan --json` prints'
  if (value.schemaVersion !== 1)
    return `"schemaVersion" is ${JSON.stringify(value.schemaVersion)}, expected 1 (a plan of another kbsync version: make it again)`
  if (typeof value.dir !== 'string') return '"dir" is missing or not a string'
  if (value.rootTopicId !== null && typeof value.rootTopicId !== 'string')
    return '"rootTopicId" is not a string or null'
  if (!Array.isArray(value.ops)) return '"ops" is missing or not a list'
  for (const [index, op] of value.ops.entries()) {
    if (!isObject(op)) return `ops[${index}] is not an object`
    if (!opKinds.includes(op.op as OpKind))
      return `ops[${index}].op is ${JSON.stringify(op.op)}, not one of ${opKinds.join(', ')}`
    if (typeof op.path !== 'string') return `ops[${index}].path is missing or not a string`
  }
  for (const field of ['orphans', 'diagnostics'] as const)
    if (!Array.isArray(value[field])) return `"${field}" is missing or not a list`
  if (!isObject(value.summary)) return '"summary" is missing or not an object'
  if (!isObject(value.fingerprint))
    return '"fingerprint" is missing: not a plan `kbsync plan --json` wrote (or one of an older version): make it again'
  return fingerprintProblem(value.fingerprint)
}

function fingerprintProblem(fingerprint: Json): string | undefined {
  for (const field of ['dir', 'assets', 'state'] as const)
    if (typeof fingerprint[field] !== 'string') return `"fingerprint.${field}" is missing or not a string`
  for (const field of ['documents', 'items'] as const) {
    const record = fingerprint[field]
    if (!isObject(record) || Object.values(record).some((hash) => typeof hash !== 'string'))
      return `"fingerprint.${field}" is not an object of hashes`
  }
  return undefined
}

/** Parses the text of a saved plan file; throws `PlanFileError` naming `file` and what is wrong. */
export function parsePlanFile(text: string, file: string): PushPlan {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new PlanFileError(
      file,
      `not JSON (${error instanceof Error ? error.message : String(error)}); write it with \`kbsync plan --json > ${file}\``
    )
  }
  const problem = planProblem(value)
  if (problem !== undefined) throw new PlanFileError(file, problem)
  return value as PushPlan
}
