/**
 * Reading the sync state file, `.kbsync/state.json`, for one target (see
 * `state-target.ts`). The file's top level is the state of the target the
 * last run used (its journal, `.kbsync/state.journal`, applies to it); the
 * other targets' states are kept under `others`, by key, each as it was
 * recorded there. A run takes its target's state out of the file and
 * writes back every other one untouched: the ids and file URLs of one
 * knowledge base are never used with another.
 *
 * A state file of format 1 named no target. It is taken as the state of
 * the first target it is used with only when nothing it recorded says it
 * belongs elsewhere (the same root topic, and every recorded file URL
 * served by that target); otherwise it is kept aside in the file and the
 * run is a first sync with its target.
 */
import type {AssetEntry, StateEntry, SyncState, TargetRecord, TargetState} from './state-types.js'
import {servedBy, targetKey, targetLabel, unnamedTarget, type StateTarget} from './state-target.js'
import {readKbsyncFile, ReadRefusedError} from '../trust/index.js'

/** The version of the state file format this code reads and writes (1: one target, unnamed). */
export const stateSchemaVersion = 2

/** The state file and its journal, relative to the folder. */
export const stateFile = '.kbsync/state.json'
export const journalFile = '.kbsync/state.journal'

/** Result of `loadState`. */
export interface LoadedState {
  state: SyncState
  /** Why the stored state was not used, when it was not. */
  warning?: string
}

/** The record naming `target` with the root `rootTopicId`. */
export function targetRecord(target: StateTarget, rootTopicId: string | null): TargetRecord {
  return {
    key: targetKey(target, rootTopicId),
    label: targetLabel(target.label, rootTopicId),
    origins: [...target.origins],
    ...(target.embedded ? {embedded: true} : {})
  }
}

/** An empty state for `rootTopicId` on `target` (default: the unnamed one). */
export function emptyState(rootTopicId: string | null, target: StateTarget = unnamedTarget): SyncState {
  return {
    schemaVersion: stateSchemaVersion,
    target: targetRecord(target, rootTopicId),
    known: false,
    rootTopicId,
    items: {},
    assets: {}
  }
}

type StateFile = Partial<TargetState> & {
  schemaVersion?: number
  journal?: string
  others?: Record<string, TargetState>
  aside?: unknown
}

/**
 * Reads the state of `dir` for `target` with the root `rootTopicId`. A
 * missing file, or a file that knows nothing of this target, gives an empty
 * state (`known: false`); a newer format is not misread: it is set aside
 * (with a warning) and the run matches from scratch.
 */
export async function loadState(
  dir: string,
  rootTopicId: string | null,
  target: StateTarget = unnamedTarget
): Promise<LoadedState> {
  const empty = emptyState(rootTopicId, target)
  let text: string
  try {
    // Never through a link out of the folder, nor past a bound: a refusal is an error naming the file (exit 2).
    const read = await readKbsyncFile(dir, stateFile)
    if (read === undefined) return {state: empty}
    text = read
  } catch (error) {
    if (error instanceof ReadRefusedError) throw error
    return {state: empty}
  }
  let data: StateFile
  try {
    data = JSON.parse(text) as StateFile
  } catch {
    return {state: empty, warning: 'The state file is not valid JSON; matching from scratch'}
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    return {state: empty, warning: 'The state file is not a JSON object; matching from scratch'}
  if (data.schemaVersion === 1) return migrate(dir, data, empty, target)
  if (data.schemaVersion !== stateSchemaVersion) {
    return {
      state: empty,
      warning: `The state file has format ${data.schemaVersion}, this kbsync reads ${stateSchemaVersion}; matching from scratch`
    }
  }
  const current = targetStateOf(data)
  // The journal holds the last run's steps: they belong to the target that run used, whichever this one is.
  if (current) await replayJournal(dir, data.journal, current)
  const others: Record<string, TargetState> = {...objectOr(data.others)}
  if (current) others[current.target.key] = current
  return {state: fromFile(empty, others, data.aside)}
}

/** The state of `empty`'s target among `targets` (taken out of them), the rest kept as its `others`. */
function fromFile(empty: SyncState, targets: Record<string, TargetState>, aside: unknown): SyncState {
  const key = empty.target!.key
  const own = targets[key]
  const others = {...targets}
  delete others[key]
  const state: SyncState = {
    ...empty,
    known: own !== undefined,
    ...(Object.keys(others).length > 0 ? {others} : {}),
    ...(aside !== undefined ? {aside} : {})
  }
  if (!own) return state
  // What was seen of this target before and now: the guard knows every origin its files were at.
  state.target = {
    ...empty.target!,
    origins: [...new Set([...empty.target!.origins, ...stringsOr(own.target.origins)])].slice(0, 16)
  }
  state.items = objectOr(own.items)
  state.assets = objectOr(own.assets)
  if (own.linksPending === true) state.linksPending = true
  if (Number.isSafeInteger(own.publisher)) state.publisher = own.publisher
  const refused = refusedOr(own.refusedBodies)
  if (refused) state.refusedBodies = refused
  return state
}

/** The top-level target state of a format-2 file, when it names one. */
function targetStateOf(data: StateFile): TargetState | undefined {
  const target = data.target
  if (!target || typeof target.key !== 'string') return undefined
  return {
    target: {key: target.key, label: String(target.label ?? target.key), origins: stringsOr(target.origins)},
    rootTopicId: data.rootTopicId ?? null,
    items: objectOr(data.items),
    assets: objectOr(data.assets),
    ...(data.linksPending === true ? {linksPending: true} : {}),
    ...(Number.isSafeInteger(data.publisher) ? {publisher: data.publisher} : {}),
    ...refusedField(data.refusedBodies)
  }
}

function refusedField(value: unknown): {refusedBodies?: Record<string, string>} {
  const refused = refusedOr(value)
  return refused ? {refusedBodies: refused} : {}
}

/** A map of ids to `updated_at` strings, when `value` is one (anything else in the file: none). */
function refusedOr(value: unknown): Record<string, string> | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined
  const entries = Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string')
  return entries.length > 0 ? Object.fromEntries(entries) : undefined
}

/** A state of format 1: this target's when nothing in it says otherwise, else kept aside. */
async function migrate(dir: string, data: StateFile, empty: SyncState, target: StateTarget): Promise<LoadedState> {
  const old: TargetState = {
    target: empty.target!,
    rootTopicId: data.rootTopicId ?? null,
    items: objectOr(data.items),
    assets: objectOr(data.assets),
    ...(data.linksPending === true ? {linksPending: true} : {})
  }
  await replayJournal(dir, data.journal, old)
  const {schemaVersion: _version, journal: _journal, ...kept} = data
  const foreign = Object.values(old.assets).find((asset) => asset.url && !servedBy(target, asset.url))
  if (old.rootTopicId === empty.rootTopicId && !foreign) {
    return {state: fromFile(empty, {[empty.target!.key]: old}, undefined)}
  }
  const why = foreign
    ? `its files are at ${new URL(foreign.url!).origin}, not at ${empty.target!.label}`
    : `it was written for root ${old.rootTopicId ?? '(knowledge-base root)'}`
  return {
    state: {...empty, aside: {...kept, items: old.items, assets: old.assets}},
    warning: `The state file (format 1) names no knowledge base and ${why}: it is kept aside in the file, and this is a first sync with ${empty.target!.label}`
  }
}

function objectOr<T>(value: Record<string, T> | undefined): Record<string, T> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {}
}

function stringsOr(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

/**
 * Replays the journal of the folder `dir` over `state` when it was
 * started for that state (`journal` id); a torn last line (a crash in the
 * middle of an append) is skipped.
 */
async function replayJournal(
  dir: string,
  journal: string | undefined,
  state: Pick<SyncState, 'items' | 'assets'>
): Promise<void> {
  if (journal === undefined) return
  let text: string
  try {
    const read = await readKbsyncFile(dir, journalFile)
    if (read === undefined) return
    text = read
  } catch (error) {
    if (error instanceof ReadRefusedError) throw error
    return
  }
  const lines = text.split('\n')
  let header: {journal?: string}
  try {
    header = JSON.parse(lines[0]!) as {journal?: string}
  } catch {
    return
  }
  if (header.journal !== journal) return
  for (const line of lines.slice(1)) {
    let record: {item?: string; asset?: string; entry?: unknown}
    try {
      record = JSON.parse(line) as typeof record
    } catch {
      continue
    }
    if (typeof record.item === 'string') {
      if (record.entry) state.items[record.item] = record.entry as StateEntry
      else delete state.items[record.item]
    } else if (typeof record.asset === 'string') {
      if (record.entry) state.assets[record.asset] = record.entry as AssetEntry
      else delete state.assets[record.asset]
    }
  }
}
