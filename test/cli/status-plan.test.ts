/** `statusFromPlan`: a plan sorted into local changes, platform changes and conflicts. */
import {describe, expect, it} from 'vitest'
import {formatStatus, statusFromPlan} from '../../src/cli/commands/status.js'
import type {PlanOp, PushPlan} from '../../src/sync/index.js'

function plan(ops: PlanOp[], orphans: PushPlan['orphans'] = []): PushPlan {
  const summary = Object.fromEntries(
    ['create', 'update', 'move', 'rename', 'delete', 'permissions', 'upload', 'conflict', 'drift'].map((k) => [
      k,
      ops.filter((o) => o.op === k).length
    ])
  ) as PushPlan['summary']
  return {
    schemaVersion: 1,
    dir: '/d',
    rootTopicId: 'R',
    ops,
    orphans,
    diagnostics: [],
    blocked: false,
    needsConfirmation: false,
    summary
  }
}

describe('statusFromPlan', () => {
  it('sorts ops and orphans into local, remote and conflicts', () => {
    const report = statusFromPlan(
      plan(
        [
          {op: 'create', type: 'article', path: 'new.md', title: 'New', reason: 'new file'},
          {
            op: 'create',
            type: 'article',
            path: 'gone.md',
            title: 'Gone',
            reason: 'the remote item was deleted; creating it again'
          },
          {op: 'update', type: 'article', path: 'a.md', title: 'A', remoteId: '1', reason: 'body changed'},
          {op: 'move', type: 'article', path: 'x/b.md', title: 'B', remoteId: '2', reason: 'moved to another folder'},
          {
            op: 'drift',
            type: 'article',
            path: 'c.md',
            title: 'C',
            remoteId: '3',
            reason: 'edited on the platform (body)'
          },
          {
            op: 'conflict',
            type: 'article',
            path: 'd.md',
            title: 'D',
            remoteId: '4',
            reason: 'edited on the platform (body) and locally'
          },
          {op: 'delete', type: 'article', path: 'old.md', title: 'Old', remoteId: '5', reason: 'no file'}
        ],
        [
          {remoteId: '5', type: 'article', title: 'Old', path: 'old.md', prunable: true, reason: 'no file'},
          {
            remoteId: '6',
            type: 'article',
            title: 'Removed here',
            path: 'removed.md',
            prunable: true,
            reason: 'no file; kept without --prune'
          },
          {remoteId: '7', type: 'topic', title: 'Made on the web', prunable: false, reason: 'not created by kbsync'}
        ]
      ),
      {target: 'T', synced: true}
    )
    expect(report.local.map((e) => `${e.change} ${e.path}`)).toEqual([
      'added new.md',
      'modified a.md',
      'moved x/b.md',
      'deleted old.md',
      'deleted removed.md'
    ])
    expect(report.remote.map((e) => `${e.change} ${e.path || e.title}`)).toEqual([
      'deleted gone.md',
      'edited c.md',
      'added Made on the web'
    ])
    expect(report.conflicts.map((e) => e.path)).toEqual(['d.md'])
    expect(report.clean).toBe(false)
    expect(report).toMatchObject({schemaVersion: 1, dir: '/d', target: 'T', rootTopicId: 'R', synced: true})
    expect(formatStatus(report)).toContain('5 local, 3 remote, 1 conflict.')
  })

  it('an empty plan is clean', () => {
    const report = statusFromPlan(plan([]), {target: 'T', synced: false})
    expect(report.clean).toBe(true)
    expect(formatStatus(report)).toContain('Up to date')
    expect(formatStatus(report)).toContain('never synced')
  })
})
