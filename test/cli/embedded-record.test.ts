/**
 * The server record of an embedded knowledge base: one claim wins, only the
 * claimant releases it, and a stale record is removed only as it was seen,
 * one taker at a time, so two processes that saw the same stale record
 * cannot both end up owners.
 */
import {statSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {claimRecord, readRecord, releaseRecord, removeStaleRecord} from '../../src/cli/embedded/record.js'
import {temporaryFolders} from '../temp-folders.js'

const folders = temporaryFolders('embedded-record')
afterAll(() => folders.removeAll())

const record = (nonce: string) => ({pid: 4242, nonce, command: 'watch'})
const alive = () => true
const dead = () => false

describe('the server record', () => {
  it('is claimed once, readable by the user alone, and released only by its claimant', async () => {
    const file = path.join(await folders.make(), 'local-kb.json.lock')
    expect(claimRecord(file, record('first'))).toBe(true)
    expect(claimRecord(file, record('second'))).toBe(false)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    releaseRecord(file, 'second')
    expect(readRecord(file)).toMatchObject({state: 'present', record: {nonce: 'first'}})
    releaseRecord(file, 'first')
    expect(readRecord(file)).toEqual({state: 'absent'})
  })

  it('a stale record is removed only as it was seen: a fresh claim made since is kept', async () => {
    const file = path.join(await folders.make(), 'local-kb.json.lock')
    claimRecord(file, record('stale'))
    const seen = readRecord(file)
    if (seen.state !== 'present') throw new Error('no record')
    // Another process saw the same stale record, removed it and claimed the file first.
    expect(removeStaleRecord(file, seen.text, dead)).toBe(true)
    expect(claimRecord(file, record('fresh'))).toBe(true)
    expect(removeStaleRecord(file, seen.text, dead)).toBe(true)
    expect(readRecord(file)).toMatchObject({state: 'present', record: {nonce: 'fresh'}})
  })

  it('one taker at a time: a live taker holds the others off, a dead one is cleared', async () => {
    const file = path.join(await folders.make(), 'local-kb.json.lock')
    claimRecord(file, record('stale'))
    const seen = readRecord(file)
    if (seen.state !== 'present') throw new Error('no record')
    writeFileSync(`${file}.takeover`, '4343')
    expect(removeStaleRecord(file, seen.text, alive)).toBe(false)
    expect(readRecord(file).state).toBe('present')
    // The taker died: its guard goes, and the next attempt removes the stale record.
    expect(removeStaleRecord(file, seen.text, dead)).toBe(false)
    expect(removeStaleRecord(file, seen.text, dead)).toBe(true)
    expect(readRecord(file)).toEqual({state: 'absent'})
  })

  it('text that is not a record is unreadable, not an owner', async () => {
    const file = path.join(await folders.make(), 'local-kb.json.lock')
    writeFileSync(file, 'not json')
    expect(readRecord(file)).toEqual({state: 'unreadable', text: 'not json'})
  })
})
