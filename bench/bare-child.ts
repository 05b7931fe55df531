/**
 * The transport floor of the initial-push benchmark: `count` creates with a
 * one-line body, `concurrency` at a time, through the same client against
 * the same kind of server, with none of the engine's work (no scan, no
 * render, no state). Prints `{"ms":…}`. Arguments: apiUrl, filesUrl, count,
 * concurrency; the token comes from KBSYNC_TOKEN.
 */
import {KbClient} from '../src/api/index.js'

const [apiUrl, filesUrl, count, concurrency] = process.argv.slice(2)
const client = new KbClient({
  apiUrl: apiUrl!,
  filesUrl: filesUrl!,
  token: process.env.KBSYNC_TOKEN ?? '',
  concurrency: Number(concurrency)
})
const topic = await client.createItem({type: 'topic', title: 'Bare', parent_topic_id: null})
const total = Number(count) - 1
let next = 0
const started = performance.now()
await Promise.all(
  Array.from({length: Number(concurrency)}, async () => {
    while (next < total) {
      const index = next++
      await client.createItem({
        type: 'article',
        title: `Bare ${index}`,
        parent_topic_id: topic.id,
        body: `Body ${index}.\n`
      })
    }
  })
)
const ms = performance.now() - started
await client.close()
process.stdout.write(JSON.stringify({ms}) + '\n')
