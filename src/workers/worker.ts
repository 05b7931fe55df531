/**
 * The entry of a conversion worker (`node:worker_threads`): runs each task
 * it is sent, one at a time, and answers with its output or the message of
 * what it threw. A throw fails that task only; the worker goes on.
 */
import {parentPort} from 'node:worker_threads'
import {errorText, type TaskAnswer, type WorkerMessage} from './protocol.js'
import {runTask, setShared} from './tasks.js'

const port = parentPort
if (port !== null) {
  port.on('message', (request: WorkerMessage) => {
    if ('share' in request) return setShared(request.share, request.value)
    void runTask(request.task, request.input).then(
      (output): void => port.postMessage({id: request.id, output} satisfies TaskAnswer),
      (error: unknown): void => port.postMessage({id: request.id, error: errorText(error)} satisfies TaskAnswer)
    )
  })
}
