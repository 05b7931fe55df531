/**
 * Whether a run changed the state, told without writing it: a run that
 * changes nothing leaves the state file as it is (it may be committed: no
 * noise in git) and pays for no rewrite of it.
 */
import {createHash} from 'node:crypto'
import type {SyncState} from '../../local/index.js'

/**
 * A digest of the text `JSON.stringify(state)` gives, made field by field
 * and entry by entry: whether a run changed the state is told without
 * holding the text of a large state whole (twice, once at each end of a
 * run). Equal texts give equal digests, and different ones different
 * digests (each piece is framed by a NUL, which JSON text never holds).
 */
export function stateDigest(state: SyncState): string {
  const hash = createHash('sha256')
  const add = (key: string, value: unknown) => {
    // As `JSON.stringify` writes an object: a field without a JSON value is left out.
    const text = JSON.stringify(value) as string | undefined
    if (text !== undefined) hash.update(`${JSON.stringify(key)}\0${text}\0`)
  }
  for (const [field, value] of Object.entries(state)) {
    if ((field === 'items' || field === 'assets') && value !== null && typeof value === 'object') {
      hash.update(`${JSON.stringify(field)}\0{\0`)
      for (const [key, entry] of Object.entries(value as Record<string, unknown>)) add(key, entry)
      hash.update('}\0')
    } else add(field, value)
  }
  return hash.digest('hex')
}
