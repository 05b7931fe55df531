/**
 * One push or pull of the scale benchmark in a process of its own, so its
 * peak memory is its own: prints one JSON line on stdout,
 * `{"ms":…,"cpuMs":…,"maxRssMb":…,"requests":…,"failed":…,"status":…}`
 * (`cpuMs`: user and system time of the whole process; `maxRssMb`: its peak
 * resident set). Arguments: push|pull, dir, apiUrl, filesUrl, concurrency;
 * the token comes from KBSYNC_TOKEN (never argv). The heap policy is the
 * CLI's (`boundHeapGrowth`), so the figures are what `kbsync push` costs.
 */
import {KbClient} from '../src/api/index.js'
import {boundHeapGrowth} from '../src/cli/heap.js'
import {push} from '../src/sync/index.js'
import {pull} from '../src/sync/pull/index.js'

boundHeapGrowth(process.execArgv, process.env.NODE_OPTIONS)
const [mode, dir, apiUrl, filesUrl, concurrencyText] = process.argv.slice(2)
if (mode !== 'push' && mode !== 'pull') throw new Error(`scale-child: push or pull, not ${String(mode)}`)
const concurrency = Number(concurrencyText ?? 8)
const client = new KbClient({apiUrl: apiUrl!, filesUrl: filesUrl!, token: process.env.KBSYNC_TOKEN ?? '', concurrency})
const options = {dir: dir!, client, concurrency}
const started = performance.now()
const result = mode === 'push' ? await push(options) : await pull(options)
const ms = performance.now() - started
await client.close()
const usage = process.resourceUsage()
process.stdout.write(
  JSON.stringify({
    ms,
    cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
    maxRssMb: usage.maxRSS / 1024,
    requests: client.stats().requests,
    failed: result.failed.length,
    status: result.status
  }) + '\n'
)
