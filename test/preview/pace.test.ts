/** The pace of the preview's background reading: it yields, pauses while a page is built, reports, and stops. */
import {describe, expect, it} from 'vitest'
import {BackgroundPace, type Progress} from '../../src/preview/pace.js'

describe('BackgroundPace', () => {
  it('pauses the reading while a page is being built, and goes on after', async () => {
    const pace = new BackgroundPace(() => undefined, 0)
    const order: string[] = []
    let release!: () => void
    const page = pace.foreground(async () => {
      order.push('page started')
      await new Promise<void>((resolve) => (release = resolve))
      order.push('page built')
    })
    const step = pace.step(1, 10).then(() => order.push('reading went on'))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(order).toEqual(['page started'])
    release()
    await Promise.all([page, step])
    expect(order).toEqual(['page started', 'page built', 'reading went on'])
  })

  it('reports at most every interval, and always the end', async () => {
    const reports: Progress[] = []
    const pace = new BackgroundPace((progress) => reports.push(progress), 1000, 60_000)
    for (let done = 1; done <= 5; done++) await pace.step(done, 5)
    expect(reports).toEqual([
      {done: 1, total: 5},
      {done: 5, total: 5}
    ])
    expect(pace.progress).toEqual({done: 5, total: 5})
  })

  it('stops: the next step rejects, and a step waiting for a page is let go', async () => {
    const pace = new BackgroundPace(() => undefined, 0)
    let release!: () => void
    const page = pace.foreground(() => new Promise<void>((resolve) => (release = resolve)))
    const waiting = pace.step(1, 3)
    pace.stop()
    await waiting
    await expect(pace.step(2, 3)).rejects.toThrow('closed')
    expect(pace.stopped).toBe(true)
    release()
    await page
  })
})
