import {describe, expect, it} from 'vitest'
import {
  createTaskRunner,
  PoolClosedError,
  poolSize,
  sharedValue,
  WorkerDiedError,
  workerHeap
} from '../../src/workers/index.js'

const fixture = new URL('./fixture-worker.mjs', import.meta.url)
type Echo = {input: unknown; threadId: number}

describe('the conversion pool', () => {
  it('runs tasks on worker threads, as many at once as it has workers, and answers each with its own output', async () => {
    const pool = createTaskRunner({size: 2, entry: fixture, help: false})
    try {
      const answers = (await Promise.all(Array.from({length: 6}, (_, n) => pool.run('echo', {n})))) as Echo[]
      expect(answers.map((answer) => answer.input)).toEqual(Array.from({length: 6}, (_, n) => ({n})))
      const threads = new Set(answers.map((answer) => answer.threadId))
      expect(threads.size).toBe(2)
      expect(threads.has(0)).toBe(false)
    } finally {
      await pool.close()
    }
  })

  it('a task that throws fails alone, with its message; the worker goes on', async () => {
    const pool = createTaskRunner({size: 1, entry: fixture, help: false})
    try {
      const results = await Promise.allSettled([pool.run('echo', 1), pool.run('throw', 'x.md'), pool.run('echo', 2)])
      expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
      expect((results[1] as PromiseRejectedResult).reason.message).toBe('cannot convert x.md')
    } finally {
      await pool.close()
    }
  })

  for (const how of ['exit', 'uncaught']) {
    it(`a worker that dies (${how}) fails only the task it held, with a clear message; a fresh worker takes the next`, async () => {
      const pool = createTaskRunner({size: 1, entry: fixture, help: false})
      try {
        const first = (await pool.run('echo', 0)) as Echo
        const results = await Promise.allSettled([pool.run(how, 1), pool.run('echo', 2)])
        expect(results[0].status).toBe('rejected')
        const reason = (results[0] as PromiseRejectedResult).reason as Error
        expect(reason).toBeInstanceOf(WorkerDiedError)
        expect(reason.message).toMatch(
          /conversion worker stopped while converting this document .*the other documents go on/
        )
        const after = (results[1] as PromiseFulfilledResult<Echo>).value
        expect(after.input).toBe(2)
        expect(after.threadId).not.toBe(first.threadId)
      } finally {
        await pool.close()
      }
    })
  }

  it('a worker whose heap reaches its cap does not fail its task: the main thread runs it, and a fresh worker takes the next', async () => {
    const inThread = async (task: string, input: unknown) => ({input, threadId: 0, task})
    const heap = {maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2}
    const pool = createTaskRunner({size: 1, entry: fixture, heap, inThread, help: false})
    try {
      const results = await Promise.allSettled([pool.run('hog', 1), pool.run('echo', 2)])
      expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled'])
      expect((results[0] as PromiseFulfilledResult<Echo>).value).toEqual({input: 1, threadId: 0, task: 'hog'})
      expect((results[1] as PromiseFulfilledResult<Echo>).value.threadId).not.toBe(0)
    } finally {
      await pool.close()
    }
  })

  it("caps each worker's heap by default (resourceLimits)", async () => {
    const pool = createTaskRunner({size: 1, entry: fixture, help: false})
    try {
      const limits = (await pool.run('limits', 0)) as {maxOldGenerationSizeMb: number}
      expect(limits.maxOldGenerationSizeMb).toBe(workerHeap.maxOldGenerationSizeMb)
    } finally {
      await pool.close()
    }
  })

  it('close() ends a worker busy converting at once: its task and the queued ones fail, and nothing runs after', async () => {
    const pool = createTaskRunner({size: 1, entry: fixture, help: false})
    await pool.run('echo', 0)
    const outcomes = Promise.allSettled([pool.run('spin', 0), pool.run('echo', 1)])
    const started = Date.now()
    await pool.close()
    expect(Date.now() - started).toBeLessThan(2000)
    for (const outcome of await outcomes) {
      expect(outcome.status).toBe('rejected')
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(PoolClosedError)
    }
    await expect(pool.run('echo', 2)).rejects.toBeInstanceOf(PoolClosedError)
  })

  it('data shared by key reaches the workers running and those started later; undefined forgets it', async () => {
    const pool = createTaskRunner({size: 2, entry: fixture, help: false})
    try {
      await pool.run('echo', 0)
      pool.share('table', new Map([['article:1', 'a.md']]))
      const answers = await Promise.all([pool.run('shared', 'table'), pool.run('shared', 'table')])
      expect(answers).toEqual([new Map([['article:1', 'a.md']]), new Map([['article:1', 'a.md']])])
      pool.share('table', undefined)
      expect(await pool.run('shared', 'table')).toBeNull()
    } finally {
      await pool.close()
    }
  })

  it('while every worker is busy this thread runs queued tasks too, one at a time, each answering its own', async () => {
    let running = 0
    let most = 0
    const inThread = async (_task: string, input: unknown) => {
      most = Math.max(most, ++running)
      await new Promise((resolve) => setTimeout(resolve, 2))
      running--
      return {input, threadId: 0}
    }
    const pool = createTaskRunner({size: 1, entry: fixture, inThread})
    try {
      const answers = (await Promise.all(Array.from({length: 30}, (_, n) => pool.run('echo', n)))) as Echo[]
      expect(answers.map((answer) => answer.input)).toEqual(Array.from({length: 30}, (_, n) => n))
      const threads = new Set(answers.map((answer) => answer.threadId))
      // Both threads converted: the worker (its first task went to it at once) and this one, never two at a time.
      expect(threads.has(0)).toBe(true)
      expect(threads.size).toBe(2)
      expect(most).toBe(1)
    } finally {
      await pool.close()
    }
  })

  it('data shared with the workers is shared with this thread too (the tasks it helps with, or too big for a worker)', async () => {
    const pool = createTaskRunner({size: 1, entry: fixture})
    try {
      pool.share('pool-test-table', new Map([['article:1', 'a.md']]))
      expect(sharedValue<Map<string, string>>('pool-test-table').get('article:1')).toBe('a.md')
      pool.share('pool-test-table', undefined)
      expect(() => sharedValue('pool-test-table')).toThrow('no data is shared under "pool-test-table"')
    } finally {
      await pool.close()
    }
  })

  it('close() fails the task this thread has in hand too, and it helps with nothing after', async () => {
    const calls: unknown[] = []
    const inThread = async (_task: string, input: unknown) => {
      calls.push(input)
      await new Promise((resolve) => setTimeout(resolve, 50))
      return input
    }
    const pool = createTaskRunner({size: 1, entry: fixture, inThread})
    const outcomes = Promise.allSettled([pool.run('spin', 0), pool.run('echo', 1), pool.run('echo', 2)])
    await new Promise((resolve) => setTimeout(resolve, 10))
    await pool.close()
    for (const outcome of await outcomes)
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(PoolClosedError)
    expect(calls).toEqual([1])
  })

  it('with no workers (size 0) runs the tasks in this thread', async () => {
    const pool = createTaskRunner({size: 0})
    expect(pool.size).toBe(0)
    const result = (await pool.run('pullBody', {body: 'Text with ![a](https://f/x.png).\n', title: 'T'})) as {
      facts: {fileUrls: string[]}
    }
    expect(result.facts.fileUrls).toEqual(['https://f/x.png'])
    await expect(pool.run('nothing', {})).rejects.toThrow('no conversion task is named "nothing"')
    await pool.close()
    await expect(pool.run('pullBody', {body: '', title: 'T'})).rejects.toBeInstanceOf(PoolClosedError)
  })
})

describe('poolSize', () => {
  it('is the cores beside the main thread, none on two cores or fewer; KBSYNC_WORKERS sets it, 0 converts in-process', () => {
    expect(poolSize(undefined, 8)).toBe(7)
    expect(poolSize(undefined, 3)).toBe(2)
    // No spare core: a worker wins no time and costs its heap (measured in src/workers/size.ts).
    expect(poolSize(undefined, 1)).toBe(0)
    expect(poolSize('', 2)).toBe(0)
    expect(poolSize('3', 2)).toBe(3)
    expect(poolSize(' 0 ', 2)).toBe(0)
    expect(poolSize(4, 2)).toBe(4)
  })

  it('refuses what is not a whole number from 0 to 64, naming the variable', () => {
    for (const bad of ['two', '-1', '1.5', '65'])
      expect(() => poolSize(bad, 2)).toThrow(/KBSYNC_WORKERS must be a whole number from 0 to 64/)
  })
})
