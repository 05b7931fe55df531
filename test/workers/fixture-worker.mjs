// A stand-in conversion worker for the pool's tests: speaks the pool's protocol (src/workers/protocol.ts).
import process from 'node:process'
import {setImmediate} from 'node:timers'
import {parentPort, resourceLimits, threadId} from 'node:worker_threads'

const shared = new Map()
parentPort.on('message', (message) => {
  if ('share' in message) {
    if (message.value === undefined) shared.delete(message.share)
    else shared.set(message.share, message.value)
    return
  }
  const {id, task, input} = message
  if (task === 'echo') parentPort.postMessage({id, output: {input, threadId}})
  else if (task === 'shared') parentPort.postMessage({id, output: shared.get(input) ?? null})
  else if (task === 'throw') parentPort.postMessage({id, error: `cannot convert ${input}`})
  else if (task === 'exit') process.exit(3)
  else if (task === 'uncaught')
    setImmediate(() => {
      throw new Error('out of its mind')
    })
  else if (task === 'spin') for (;;);
  else if (task === 'limits') parentPort.postMessage({id, output: resourceLimits})
  else if (task === 'hog') {
    // Keeps growing until the heap's cap ends the worker (ERR_WORKER_OUT_OF_MEMORY).
    const kept = []
    for (;;) kept.push(new Array(100_000).fill(kept.length))
  }
})
