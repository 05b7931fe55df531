/**
 * Mermaid diagrams in a push (`src/diagrams/`): a folder of articles of
 * which some hold a Mermaid block, pushed to the local server through the
 * real client, against the same folder with those blocks as plain code
 * (nothing to render), measured in the same run: the first push (each
 * diagram rendered in one browser and uploaded), a no-op push (nothing
 * rendered, nothing uploaded, no browser), and the browsers a push of a
 * folder without diagrams starts (none).
 */
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {chromium} from 'playwright-core'
import {KbClient} from '../src/api/index.js'
import {findBrowser, headlessArgs, type BrowserLauncher} from '../src/diagrams/index.js'
import {startServer} from '../src/server/index.js'
import {push} from '../src/sync/index.js'
import type {Row} from './push-bench.js'

/** A folder of `articles` articles, `diagrams` of them with a distinct Mermaid block (or, `asCode`, the same text as plain code). */
async function folder(articles: number, diagrams: number, asCode: boolean): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-diagrams-bench-'))
  await mkdir(path.join(dir, 'docs'))
  for (let index = 0; index < articles; index++) {
    const block =
      index < diagrams
        ? `\`\`\`${asCode ? 'text' : 'mermaid'}\nflowchart LR\n  A${index}[Start ${index}] --> B{Check} --> C[Done]\n\`\`\`\n`
        : ''
    await writeFile(
      path.join(dir, 'docs', `page-${index}.md`),
      `# Page ${index}\n\nSome text of page ${index}.\n\n${block}`
    )
  }
  return dir
}

/** Times one push of `dir` under a new topic; counts the browsers it started and the diagrams it rendered. */
async function timedPush(
  client: KbClient,
  dir: string,
  root: string,
  launch: BrowserLauncher
): Promise<{ms: number; rendered: number; writes: number}> {
  const started = performance.now()
  const result = await push({dir, client, rootTopicId: root, diagrams: {launch}})
  const ms = performance.now() - started
  if (result.status !== 'ok') throw new Error(`diagrams bench: push of ${dir} ended ${result.status}`)
  const info = result.plan.diagnostics.find((d) => d.rule === 'diagram-rendered')
  return {ms, rendered: info ? Number(/Rendered (\d+)/.exec(info.message)![1]) : 0, writes: result.writes}
}

/** The run of median time among three no-op pushes of `dir`. */
async function medianPush(
  client: KbClient,
  dir: string,
  root: string,
  launch: BrowserLauncher
): Promise<{ms: number; rendered: number; writes: number}> {
  const runs = [
    await timedPush(client, dir, root, launch),
    await timedPush(client, dir, root, launch),
    await timedPush(client, dir, root, launch)
  ]
  return runs.sort((a, b) => a.ms - b.ms)[1]!
}

/** The rows of the diagrams benchmark: `articles` articles, `diagrams` of them with a Mermaid block. */
export async function benchDiagrams(articles = 200, diagrams = 20): Promise<Row[]> {
  const bench = `push, ${articles} articles, ${diagrams} Mermaid blocks`
  const found = findBrowser()
  if (!('path' in found)) {
    console.log(`diagrams: skipped, no Chromium (looked for ${found.missing.join(', ')})`)
    return [{bench, measure: 'skipped: no Chromium', value: '-', target: '-', met: null}]
  }
  let launches = 0
  const launch: BrowserLauncher = (executablePath) => {
    launches++
    return chromium.launch({executablePath, args: [...headlessArgs]})
  }
  const server = await startServer({port: 0})
  const client = KbClient.fromEnv({
    KBSYNC_API_URL: server.apiUrl,
    KBSYNC_FILES_URL: server.filesUrl,
    KBSYNC_TOKEN: server.token
  })
  const folders = [await folder(articles, diagrams, true), await folder(articles, diagrams, false)]
  try {
    const topic = async (title: string) => (await client.createItem({type: 'topic', title, parent_topic_id: null})).id
    const [codeRoot, diagramRoot] = [await topic('code'), await topic('diagrams')]
    const codeFirst = await timedPush(client, folders[0]!, codeRoot, launch)
    const codeNoop = await medianPush(client, folders[0]!, codeRoot, launch)
    const launchesWithout = launches
    const first = await timedPush(client, folders[1]!, diagramRoot, launch)
    const launchesFirst = launches - launchesWithout
    const noop = await medianPush(client, folders[1]!, diagramRoot, launch)
    const launchesNoop = launches - launchesWithout - launchesFirst
    const perDiagram = (first.ms - codeFirst.ms) / diagrams
    console.log(
      `diagrams: first push ${first.ms.toFixed(0)} ms (code ${codeFirst.ms.toFixed(0)} ms, ${first.rendered} rendered), no-op ${noop.ms.toFixed(0)} ms (code ${codeNoop.ms.toFixed(0)} ms)`
    )
    return [
      {
        bench,
        measure: 'first push: browsers started, diagrams rendered',
        value: `${launchesFirst} browser, ${first.rendered} rendered`,
        target: '1 browser, each diagram once',
        met: launchesFirst === 1 && first.rendered === diagrams
      },
      {
        bench,
        measure: 'first push, each diagram rendered and uploaded',
        value: `${first.ms.toFixed(0)} ms (plain code ${codeFirst.ms.toFixed(0)} ms), +${perDiagram.toFixed(0)} ms a diagram`,
        target: '< 300 ms a diagram',
        met: perDiagram < 300
      },
      {
        bench,
        measure: 'no-op push (median of 3)',
        value: `${noop.ms.toFixed(0)} ms, ${(noop.ms / codeNoop.ms).toFixed(2)}x plain code; ${noop.rendered} rendered, ${noop.writes} writes, ${launchesNoop} browsers`,
        target: '<= 1.5x plain code, nothing rendered, written or started',
        met: noop.ms <= 1.5 * codeNoop.ms && noop.rendered === 0 && noop.writes === 0 && launchesNoop === 0
      },
      {
        bench,
        measure: 'pushes of the folder without diagrams: browsers started',
        value: String(launchesWithout),
        target: '0',
        met: launchesWithout === 0
      }
    ]
  } finally {
    await client.close()
    await server.close()
    for (const dir of folders) await rm(dir, {recursive: true, force: true})
  }
}
