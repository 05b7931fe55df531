/** The rule of `permissionsSeenAt` (sync/permissions-seen.ts): when kbsync may take an item's permissions as known without reading them. */
import {describe, expect, it} from 'vitest'
import {
  permissionsSeenAfterPull,
  permissionsSeenAfterWrite,
  stampBefore
} from '../../src/sync/shared/permissions-seen.js'
import type {StateEntry} from '../../src/local/index.js'

const entry = (fields: Partial<StateEntry>): StateEntry => ({
  id: 'A',
  type: 'article',
  title: 'A',
  parentId: null,
  ...fields
})

describe('permissionsSeenAt', () => {
  it('a pull records the structure stamp only for permissions it read', () => {
    expect(permissionsSeenAfterPull(entry({permissionsSeenAt: 't1'}), 't2', true)).toBe('t2')
    expect(permissionsSeenAfterPull(entry({permissionsSeenAt: 't1'}), 't2', false)).toBe('t1')
    expect(permissionsSeenAfterPull(undefined, 't2', false)).toBeUndefined()
  })

  it('a write advances it only when nothing but the write lies between the permissions known and its result', () => {
    // Created now: the platform's defaults.
    expect(permissionsSeenAfterWrite(undefined, undefined, {updatedAt: 't1', version: 1})).toBe('t1')
    // Known at the stamp before, one version later.
    expect(permissionsSeenAfterWrite('t1', {updatedAt: 't1', version: 3}, {updatedAt: 't2', version: 4})).toBe('t2')
    // Someone else's change since the permissions were seen (a push recorded its stamp): kept.
    expect(permissionsSeenAfterWrite('t0', {updatedAt: 't1', version: 3}, {updatedAt: 't2', version: 4})).toBe('t0')
    // Another change between the stamp before and the write: the version moved by two.
    expect(permissionsSeenAfterWrite('t1', {updatedAt: 't1', version: 3}, {updatedAt: 't3', version: 5})).toBe('t1')
    // Never seen (an older state): stays unknown.
    expect(
      permissionsSeenAfterWrite(undefined, {updatedAt: 't1', version: 3}, {updatedAt: 't2', version: 4})
    ).toBeUndefined()
    // Setting the permissions makes them known whatever they were, unless another change slipped in.
    expect(permissionsSeenAfterWrite('t0', {updatedAt: 't1', version: 3}, {updatedAt: 't2', version: 4}, true)).toBe(
      't2'
    )
    expect(permissionsSeenAfterWrite('t0', {updatedAt: 't1', version: 3}, {updatedAt: 't3', version: 5}, true)).toBe(
      't0'
    )
  })

  it('the stamp before a write is the state entry, unless this run saw the item moved', () => {
    const known = entry({remoteUpdatedAt: 't1', remoteVersion: 3})
    expect(stampBefore(known, {updatedAt: 't1'})).toEqual({updatedAt: 't1', version: 3})
    expect(stampBefore(known, undefined)).toEqual({updatedAt: 't1', version: 3})
    expect(stampBefore(known, {updatedAt: 't2', version: 4})).toEqual({updatedAt: 't2', version: 4})
  })
})
