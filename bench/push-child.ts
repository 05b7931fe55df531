/**
 * One push in a process of its own, so its peak memory is its own: prints
 * `{"ms":…,"planMs":…,"maxRssMb":…,"requests":…}` on stdout (`planMs`: the scan
 * and the reads before the first write). Arguments: dir, apiUrl,
 * filesUrl, concurrency; the token comes from KBSYNC_TOKEN (never argv).
 */
import {KbClient} from '../src/api/index.js'
import {applyPush, planPush} from '../src/sync/index.js'

const [dir, apiUrl, filesUrl, concurrency] = process.argv.slice(2)
const client = new KbClient({
  apiUrl: apiUrl!,
  filesUrl: filesUrl!,
  token: process.env.KBSYNC_TOKEN ?? '',
  concurrency: Number(concurrency ?? 8)
})
const options = {dir: dir!, client, concurrency: Number(concurrency ?? 8)}
const started = performance.now()
const plan = await planPush(options)
const planMs = performance.now() - started
const result = await applyPush(plan, options)
const ms = performance.now() - started
await client.close()
process.stdout.write(
  JSON.stringify({
    ms,
    planMs,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    requests: client.stats().requests,
    failed: result.failed.length
  }) + '\n'
)
