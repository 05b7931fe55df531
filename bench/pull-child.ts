/**
 * One pull in a process of its own (the server's latency timers do not
 * share its event loop): prints `{"ms":…,"requests":…,"failed":…,"status":…}`
 * on stdout, with `cpuMs`, the process's CPU time (user and system), which
 * a loaded machine stretches less than the wall time. Arguments: dir, apiUrl, filesUrl, concurrency; the token comes
 * from KBSYNC_TOKEN (never argv).
 */
import {KbClient} from '../src/api/index.js'
import {pull} from '../src/sync/pull/index.js'

const [dir, apiUrl, filesUrl, concurrency] = process.argv.slice(2)
const client = new KbClient({
  apiUrl: apiUrl!,
  filesUrl: filesUrl!,
  token: process.env.KBSYNC_TOKEN ?? '',
  concurrency: Number(concurrency ?? 8)
})
const started = performance.now()
const cpu = process.cpuUsage()
const result = await pull({dir: dir!, client, concurrency: Number(concurrency ?? 8)})
const ms = performance.now() - started
const used = process.cpuUsage(cpu)
await client.close()
process.stdout.write(
  JSON.stringify({
    ms,
    cpuMs: (used.user + used.system) / 1000,
    requests: client.stats().requests,
    failed: result.failed.length,
    status: result.status
  }) + '\n'
)
