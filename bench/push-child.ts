/**
 * One push in a process of its own, so its peak memory is its own: prints
 * `{"ms":…,"maxRssMb":…,"requests":…}` on stdout. Arguments: dir, apiUrl,
 * filesUrl, concurrency; the token comes from KBSYNC_TOKEN (never argv).
 */
import {KbClient} from '../src/api/index.js'
import {push} from '../src/sync/index.js'

const [dir, apiUrl, filesUrl, concurrency] = process.argv.slice(2)
const client = new KbClient({apiUrl: apiUrl!, filesUrl: filesUrl!, token: process.env.KBSYNC_TOKEN ?? '', concurrency: Number(concurrency ?? 8)})
const started = performance.now()
const result = await push({dir: dir!, client, concurrency: Number(concurrency ?? 8)})
const ms = performance.now() - started
await client.close()
process.stdout.write(JSON.stringify({ms, maxRssMb: process.resourceUsage().maxRSS / 1024, requests: client.stats().requests, failed: result.failed.length}) + '\n')
