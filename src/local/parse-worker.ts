/**
 * A parse worker (a worker thread of `parseBodies`): parses the batches of
 * bodies it is sent and answers with the results, in order.
 */
import {parentPort} from 'node:worker_threads'
import {parseBody, type BodySource} from './parse-body.js'

/** A batch sent to a worker. */
export interface ParseRequest {
  id: number
  sources: BodySource[]
}

parentPort?.on('message', (request: ParseRequest) => {
  try {
    parentPort!.postMessage({id: request.id, parsed: request.sources.map(parseBody)})
  } catch (error) {
    parentPort!.postMessage({id: request.id, error: error instanceof Error ? error.message : String(error)})
  }
})
