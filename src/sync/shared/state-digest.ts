/**
 * Whether a run changed the state, told without writing it: a run that
 * changes nothing leaves the state file as it is (it may be committed: no
 * noise in git) and pays for no rewrite of it.
 *
 * Told from a snapshot of the state's values, not a digest of its text:
 * a digest turned every entry into JSON text at each check (two or three a
 * run; half a second a check at 30,000 items), where the entries, flat
 * records of strings and numbers, compare value by value without making
 * a string. The snapshot never calls a state unchanged whose JSON text
 * changed: it keeps each entry's fields in order (the text's order), any
 * value that is not a string, number, boolean or null as its JSON text,
 * and the fields beside the items and assets (the other targets' states)
 * as their JSON text.
 */
import type {SyncState} from '../../local/index.js'

/** The state's values at one moment (`snapshotState`), to compare the state with later. */
export interface StateSnapshot {
  /** Whether `state`'s JSON text now differs from the text it had at the snapshot. */
  changed(state: SyncState): boolean
}

/** The entries of one map of the state (items or assets): each key, then its entry as `fieldsOf` gives it. */
type EntriesSnapshot = Array<string | unknown[] | JsonText>

/** A value kept as its JSON text (a field holding an object or array: not in today's state, compared all the same). */
class JsonText {
  constructor(readonly json: string | undefined) {}
}

/** A snapshot of `state`, to tell later whether the run changed it. */
export function snapshotState(state: SyncState): StateSnapshot {
  const items = entriesOf(state.items)
  const assets = entriesOf(state.assets)
  const rest = restJsonText(state)
  return {
    changed: (now) => !sameEntries(now.items, items) || !sameEntries(now.assets, assets) || restJsonText(now) !== rest
  }
}

/** The JSON text of `state` without its items and assets (small, unless other targets' states are kept beside). */
function restJsonText(state: SyncState): string {
  // Where the items and assets stand among the fields is kept (the text's order); their content is compared apart.
  return JSON.stringify(state, function (this: unknown, key: string, value: unknown) {
    return (key === 'items' || key === 'assets') && this === state ? 0 : value
  })
}

function entriesOf(map: Record<string, unknown> | undefined): EntriesSnapshot | JsonText {
  if (!isRecord(map)) return new JsonText(JSON.stringify(map))
  const entries: EntriesSnapshot = []
  for (const key in map) if (Object.hasOwn(map, key)) entries.push(key, fieldsOf(map[key]))
  return entries
}

/** An entry as its fields and values in order (those JSON leaves out, left out); anything but a plain record, as its JSON text. */
function fieldsOf(entry: unknown): unknown[] | JsonText {
  if (!isRecord(entry)) return new JsonText(JSON.stringify(entry))
  const fields: unknown[] = []
  for (const key in entry) {
    if (!Object.hasOwn(entry, key)) continue
    const value = entry[key]
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue
    fields.push(key, isPrimitive(value) ? leaf(value) : new JsonText(JSON.stringify(value)))
  }
  return fields
}

function sameEntries(map: Record<string, unknown> | undefined, before: EntriesSnapshot | JsonText): boolean {
  if (before instanceof JsonText || !isRecord(map))
    return before instanceof JsonText && JSON.stringify(map) === before.json
  let index = 0
  for (const key in map) {
    if (!Object.hasOwn(map, key)) continue
    if (before[index] !== key || !sameFields(map[key], before[index + 1] as unknown[] | JsonText)) return false
    index += 2
  }
  return index === before.length
}

function sameFields(entry: unknown, before: unknown[] | JsonText): boolean {
  if (before instanceof JsonText || !isRecord(entry))
    return before instanceof JsonText && JSON.stringify(entry) === before.json
  let index = 0
  for (const key in entry) {
    if (!Object.hasOwn(entry, key)) continue
    const value = entry[key]
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue
    if (before[index] !== key) return false
    const was = before[index + 1]
    if (isPrimitive(value) ? was !== leaf(value) : !(was instanceof JsonText) || JSON.stringify(value) !== was.json)
      return false
    index += 2
  }
  return index === before.length
}

/** A plain record, as JSON writes it field by field (an array, or an object with `toJSON`, is not). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    typeof (value as {toJSON?: unknown}).toJSON !== 'function'
  )
}

/** A value whose JSON text follows from `===` once `leaf` made it what JSON writes. */
function isPrimitive(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
}

/** A string, number, boolean or null as JSON writes it: a number that is not finite is `null` there. */
function leaf(value: string | number | boolean | null): string | number | boolean | null {
  return typeof value === 'number' && !Number.isFinite(value) ? null : value
}
