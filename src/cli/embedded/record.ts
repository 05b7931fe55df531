/**
 * The server record of an embedded knowledge base: `<data>.lock` beside its
 * data file (`.kbsync/local-kb.json.lock`), saying which kbsync process owns
 * the data file and where it serves it. Whoever holds the record is the only
 * process that opens the data file; every other one talks to its server.
 *
 * Every write of the record is atomic and whole: a claim is a private temp
 * file hard-linked to the record's name (which fails when a record is there,
 * so two claims cannot both win), and the address is published by renaming a
 * temp file over it. The record holds the server's token: it is readable by
 * the user alone (mode 0600).
 */
import {randomBytes} from 'node:crypto'
import {linkSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync} from 'node:fs'
import type {OwnerRecord} from '../../trust/owner-record.js'

/** The record of the process that serves a folder's embedded knowledge base: the trust rule's sealed record. */
export type ServerRecord = OwnerRecord

/** The record's path for the data file `dataPath`. */
export function recordPath(dataPath: string): string {
  return `${dataPath}.lock`
}

/** The record as read: absent, unreadable (not kbsync's, or written by hand), or a record with its raw text. */
export type ReadRecord =
  {state: 'absent'} | {state: 'unreadable'; text: string} | {state: 'present'; record: ServerRecord; text: string}

/** Reads the record at `path`. */
export function readRecord(path: string): ReadRecord {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {state: 'absent'}
    throw error
  }
  try {
    const record = JSON.parse(text) as ServerRecord
    if (Number.isInteger(record.pid) && record.pid > 0 && typeof record.nonce === 'string')
      return {state: 'present', record, text}
  } catch {
    // Fall through: not a record.
  }
  return {state: 'unreadable', text}
}

/** A fresh nonce for a claim. */
export function newNonce(): string {
  return randomBytes(12).toString('hex')
}

/** Writes `record` to a private temp file beside `path` and returns the temp file's name. */
function writeTemp(path: string, record: ServerRecord): string {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  writeFileSync(temp, JSON.stringify(record) + '\n', {mode: 0o600, flag: 'wx'})
  return temp
}

/** Creates the record at `path` unless one is there; true when this call created it. */
export function claimRecord(path: string, record: ServerRecord): boolean {
  const temp = writeTemp(path, record)
  try {
    linkSync(temp, path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  } finally {
    rmSync(temp, {force: true})
  }
}

/** Replaces the record at `path` by `record` (the owner adding its address); only the owner calls it. */
export function publishRecord(path: string, record: ServerRecord): void {
  const temp = writeTemp(path, record)
  try {
    renameSync(temp, path)
  } catch (error) {
    rmSync(temp, {force: true})
    throw error
  }
}

/** Removes the record at `path` if it is still the claim `nonce` (never another process's). */
export function releaseRecord(path: string, nonce: string): void {
  const found = readRecord(path)
  if (found.state === 'present' && found.record.nonce === nonce) rmSync(path, {force: true})
}

/**
 * Removes the stale record whose text was `text`, unless it changed since.
 * Serialised by `<record>.takeover` (created exclusively, holding the pid),
 * so that of two processes that saw the same stale record, the second cannot
 * remove the fresh claim of the first. Returns false when another process
 * is taking over right now (try again shortly).
 */
export function removeStaleRecord(path: string, text: string, isAlive: (pid: number) => boolean): boolean {
  const guard = `${path}.takeover`
  try {
    writeFileSync(guard, String(process.pid), {mode: 0o600, flag: 'wx'})
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    // A guard left by a process killed in these few lines: its pid is dead.
    const holder = Number(readText(guard))
    if (!(Number.isInteger(holder) && holder > 0 && isAlive(holder))) rmSync(guard, {force: true})
    return false
  }
  try {
    if (readText(path) === text) unlinkSync(path)
    return true
  } finally {
    rmSync(guard, {force: true})
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}
