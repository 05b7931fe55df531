/**
 * Parsing many bodies on several cores. Converting Markdown is the one part
 * of a scan that costs CPU (a millisecond or more per article), and a first
 * push or a converter upgrade parses every body: worker threads share that
 * work, each sent small batches as it becomes free, and the trees come back
 * (a structured clone costs a tenth of the parse). Few bodies, one core, or
 * code running from its TypeScript sources (no compiled worker) parse on
 * this thread.
 */
import {existsSync} from 'node:fs'
import {availableParallelism} from 'node:os'
import {fileURLToPath} from 'node:url'
import {Worker} from 'node:worker_threads'
import {parseBody, type BodySource, type ParsedBody} from './parse-body.js'
import type {ParseRequest} from './parse-worker.js'

/** How `parseBodies` may use workers. */
export interface ParseOptions {
  /** Worker threads to use at most (default: the cores, up to 4); 0 parses on this thread. */
  workers?: number
  /** Below this many bodies, starting workers costs more than it saves (default 100). */
  minBodies?: number
}

const batchSize = 20
const workerScript = new URL('./parse-worker.js', import.meta.url)

/** Parses every body of `sources`; the results come in the same order. */
export async function parseBodies(sources: readonly BodySource[], options: ParseOptions = {}): Promise<ParsedBody[]> {
  const wanted = Math.min(options.workers ?? Math.min(availableParallelism(), 4), Math.ceil(sources.length / batchSize))
  if (wanted < 2 || sources.length < (options.minBodies ?? 100) || !existsSync(fileURLToPath(workerScript))) return sources.map(parseBody)
  const results: ParsedBody[] = new Array(sources.length)
  const workers = Array.from({length: wanted}, () => new Worker(workerScript))
  let next = 0
  try {
    await Promise.all(
      workers.map(async (worker) => {
        while (next < sources.length) {
          const start = next
          next = Math.min(sources.length, next + batchSize)
          const parsed = await ask(worker, {id: start, sources: sources.slice(start, next)})
          parsed.forEach((result, offset) => (results[start + offset] = result))
        }
      })
    )
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()))
  }
  return results
}

/** Sends one batch to `worker`; resolves with its parsed bodies. */
function ask(worker: Worker, request: ParseRequest): Promise<ParsedBody[]> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      worker.off('message', onMessage)
      worker.off('error', onError)
    }
    const onMessage = (answer: {id: number; parsed?: ParsedBody[]; error?: string}) => {
      if (answer.id !== request.id) return
      cleanup()
      if (answer.parsed) resolve(answer.parsed)
      else reject(new Error(`parse worker: ${answer.error}`))
    }
    const onError = (error: Error) => {
      cleanup()
      reject(error)
    }
    worker.on('message', onMessage)
    worker.on('error', onError)
    worker.postMessage(request)
  })
}
