/**
 * The parse workers: the compiled pool (dist/, built by the global setup;
 * from the TypeScript sources there is no worker to start) gives exactly
 * what parsing on the scan's own thread gives, in order.
 */
import {existsSync} from 'node:fs'
import {readdir, readFile} from 'node:fs/promises'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import type {BodySource, ParsedBody} from '../../src/local/parse-body.js'

type Pool = {parseBodies(sources: readonly BodySource[], options?: {workers?: number; minBodies?: number}): Promise<ParsedBody[]>}

async function sources(): Promise<BodySource[]> {
  const bodies: BodySource[] = []
  for (const root of ['fixtures/convert', 'fixtures/dialect']) {
    for (const name of (await readdir(root)).sort()) {
      const file = path.join(root, name, 'input.md')
      if (existsSync(file)) bodies.push({file: `${name}.md`, body: await readFile(file, 'utf8')})
    }
  }
  return bodies
}

describe('parseBodies', () => {
  it('parses on worker threads exactly as on this thread, messages and references included', async () => {
    const worker = path.resolve('dist/src/local/parse-worker.js')
    expect(existsSync(worker)).toBe(true)
    const pool = (await import(path.resolve('dist/src/local/parse-pool.js'))) as Pool
    const all = await sources()
    // Several batches per worker, so results must be put back in order.
    const many = [...all, ...all, ...all].map((source, index) => ({...source, file: `${index}-${source.file}`}))
    const inline = await pool.parseBodies(many, {workers: 0})
    const threaded = await pool.parseBodies(many, {workers: 2, minBodies: 1})
    expect(threaded).toEqual(inline)
    expect(inline.some((parsed) => parsed.messages.length > 0)).toBe(true)
    expect(inline.some((parsed) => parsed.refs.length > 0)).toBe(true)
  })
})
