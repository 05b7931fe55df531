/**
 * Whether the owner a server record names is still there: its process, and
 * a kbsync server answering at the recorded address.
 */
import type {ServerRecord} from './record.js'

/** Whether a process with id `pid` exists (one of another user counts: signalling it is refused, not absent). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * What the recorded address answers: `kbsync` (the structure, as the local
 * server gives it), `refused` (nothing listens there), `foreign` (something
 * else answers), `silent` (no answer in time: a busy owner, not a gone one).
 */
export type Probe = 'kbsync' | 'refused' | 'foreign' | 'silent'

/** Asks the server of `record` for the top of the structure. */
export async function probe(record: ServerRecord, timeoutMs = 2000): Promise<Probe> {
  try {
    const response = await fetch(`${record.apiUrl}/knowledgebase/structure?depth=1`, {
      headers: {Authorization: `Bearer ${record.token ?? ''}`},
      signal: AbortSignal.timeout(timeoutMs)
    })
    const body = (await response.json().catch(() => undefined)) as {items?: unknown} | undefined
    return response.ok && Array.isArray(body?.items) ? 'kbsync' : 'foreign'
  } catch (error) {
    return (error as Error).name === 'TimeoutError' ? 'silent' : 'refused'
  }
}
