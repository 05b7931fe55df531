/**
 * Synchronous file system work in slices. A synchronous listing or read
 * costs the call alone, where its asynchronous twin waits on libuv's thread
 * pool once or more per file or folder, one after the other; a turn of the
 * event loop between slices keeps a watching or previewing process
 * responsive, and lets a signal in.
 */

/** How long synchronous work runs before the event loop turns, in ms. */
const sliceMs = 10

/**
 * A pacer for one walk or read: each call of the function it returns lets the
 * event loop turn when the current slice has run its time, and resolves at
 * once otherwise.
 */
export function timeSlices(): () => Promise<void> {
  let sliceStart = performance.now()
  return async () => {
    if (performance.now() - sliceStart <= sliceMs) return
    await new Promise((resolve) => setImmediate(resolve))
    sliceStart = performance.now()
  }
}
