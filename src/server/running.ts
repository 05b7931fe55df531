/**
 * The handle a started local server gives its starter: its addresses, a
 * clean stop, the request log, web edits and faults to steer while it runs.
 */
import type {Server} from 'node:http'
import type {Person} from '../api/types.js'
import type {ResolvedHabits} from './habits.js'
import type {Pipeline} from './http.js'
import type {RunningServer} from './options.js'
import type {Storage} from './storage.js'

const webPerson: Person = {id: 2, first_name: 'Web', last_name: 'Editor', type: 'user'}

/** The running server's handle over its listening HTTP server, pipeline and storage. */
export function runningServer(parts: {
  server: Server
  pipeline: Pipeline
  storage: Storage
  habits: ResolvedHabits
  token: string
}): RunningServer {
  const {server, pipeline, storage} = parts
  const {log} = pipeline
  let closed: Promise<void> | undefined
  return {
    apiUrl: pipeline.urls.apiUrl,
    filesUrl: pipeline.urls.filesUrl,
    token: parts.token,
    habits: parts.habits,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => {
          // Stopped cleanly: the snapshot alone holds everything.
          storage.settle()
          storage.dataFile?.close()
          resolve()
        })
      })),
    requestLog: () => log.entries(),
    counts: () => log.counts(),
    requestCount: () => log.total(),
    resetLog: () => log.reset(),
    webEdit(id, change) {
      const item = storage.store.webEdit(id, change, webPerson)
      storage.persistNow()
      return item
    },
    items: () => storage.store.all(),
    setFaults(next) {
      pipeline.faults.set({failRate: next.failRate, latencyMs: next.latencyMs, failModes: next.failModes})
      if (next.rateLimit) pipeline.limiter.set(next.rateLimit)
      if (next.dropOver !== undefined) pipeline.drops.set(next.dropOver)
    },
    revokeToken: (t) => void storage.tokens.sets.revoked.add(t),
    expireToken: (t) => void storage.tokens.sets.expired.add(t)
  }
}
