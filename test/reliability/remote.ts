/**
 * What the local server applied, read from its request log: a write counts
 * when it was answered 200 or when the connection was dropped after it was
 * applied (`drop-after`).
 */
import type {RunningServer} from '../../src/server/index.js'

/** The applied uploads (one entry per stored file). */
export function listFiles(server: RunningServer): string[] {
  return server
    .requestLog()
    .filter((e) => e.endpoint === 'upload' && (e.status === 200 || e.faulted === 'drop-after'))
    .map((e) => e.path)
}
