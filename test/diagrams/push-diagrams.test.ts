/**
 * End-to-end: pushes of documents with a Mermaid block and a draw.io file,
 * through the real client against the real local server: each uploaded
 * once, rendered once, a second push renders and uploads nothing, a changed
 * diagram is rendered and uploaded once; without a browser or with a broken
 * diagram the block stays code.
 */
import {existsSync} from 'node:fs'
import {mkdir, readFile, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {chromium} from 'playwright-core'
import {beforeAll, describe, expect, it} from 'vitest'
import {findBrowser, headlessArgs, type BrowserLauncher} from '../../src/diagrams/index.js'
import {push, type PushResult} from '../../src/sync/index.js'
import {useLocalServer} from '../e2e/local-server.js'
import {bodyOf, cli, edit} from '../e2e/push-helpers.js'
import {uploadsSeen, useFolders} from './helpers.js'

const browser = findBrowser()
const hasBrowser = 'path' in browser
if (!hasBrowser)
  console.warn(
    `Skipping the Mermaid rendering tests: no Chromium (looked for ${browser.missing.join(', ')}; apt-get install chromium)`
  )

const local = useLocalServer()
const newFolder = useFolders('kbsync-diagrams-')

const flowchart = 'flowchart LR\n  A[Write] --> B[Push]\n'
const drawioXml =
  '<mxfile><diagram name="Page-1"><mxGraphModel><root><mxCell id="0"/></root></mxGraphModel></diagram></mxfile>\n'

/** A folder with one article holding a Mermaid block and a draw.io diagram, and one with neither. */
async function folder(): Promise<string> {
  const dir = await newFolder()
  await mkdir(path.join(dir, 'img'))
  await writeFile(path.join(dir, 'img', 'arch.drawio'), drawioXml)
  await writeFile(
    path.join(dir, 'design.md'),
    `# Design\n\nThe flow:\n\n\`\`\`mermaid\n${flowchart}\`\`\`\n\n[Architecture](img/arch.drawio)\n`
  )
  await writeFile(path.join(dir, 'plain.md'), '# Plain\n\nNo diagram here.\n')
  return dir
}

/** Counts what a push costs: browser launches (through a counting launcher) and upload requests. */
function counters() {
  const count = {launches: 0}
  const launch: BrowserLauncher = (executablePath) => {
    count.launches++
    return chromium.launch({executablePath, args: [...headlessArgs]})
  }
  return {count, launch}
}

function rendered(result: PushResult): number {
  const info = result.plan.diagnostics.find((d) => d.rule === 'diagram-rendered')
  return info ? Number(/Rendered (\d+)/.exec(info.message)![1]) : 0
}

async function remoteBody(root: string, title: string): Promise<string> {
  const [node] = (await local.client.getTree(root)).filter((item) => item.title === title)
  return bodyOf(await local.client.getItem(node!.id))
}

describe.skipIf(!hasBrowser)('Mermaid and draw.io, pushed end to end', () => {
  let dir: string
  let root: string
  const {count, launch} = counters()
  const pushOnce = () => push({dir, client: local.client, rootTopicId: root, diagrams: {launch}})
  /** One push and what it cost: browser launches so far, diagrams rendered, uploads and writes. */
  const measured = async () => {
    local.server.resetLog()
    const result = await pushOnce()
    return {
      status: result.status,
      launches: count.launches,
      rendered: rendered(result),
      uploads: uploadsSeen(local),
      writes: result.writes
    }
  }

  beforeAll(async () => {
    dir = await folder()
    root = (await local.client.createItem({type: 'topic', title: 'Diagrams', parent_topic_id: null})).id
  })

  it('a first push renders the diagram once and uploads it and the draw.io file once each', async () => {
    expect(await measured()).toMatchObject({status: 'ok', launches: 1, rendered: 1, uploads: 2})
    const body = await remoteBody(root, 'Design')
    expect(body).toMatch(/^!\[flowchart LR\]\(http[^)]+\/services\/kb\?Id=[0-9a-f-]+\)$/m)
    expect(body).not.toContain('```')
    expect(body).toMatch(
      /^<iframe data-node="drawio" src="http[^"]+\/services\/kb\?Id=[0-9a-f-]+" width="800"><\/iframe>$/m
    )
    expect(existsSync(path.join(dir, '.kbsync/diagrams'))).toBe(true)
  })

  it('a second push renders nothing, uploads nothing and writes nothing', async () => {
    expect(await measured()).toEqual({status: 'ok', launches: 1, rendered: 0, uploads: 0, writes: 0})
  })

  it('the render cache spares the browser even when the state forgot the upload: the SVG is uploaded, not rendered again', async () => {
    // Without the state's URL for it the diagram must be uploaded again, but its SVG is on disk.
    const state = path.join(dir, '.kbsync/state.json')
    const data = JSON.parse(await readFile(state, 'utf8')) as {assets: Record<string, {usedBy?: string}>}
    await rm(path.join(dir, '.kbsync/state.journal'), {force: true})
    const kept = Object.fromEntries(Object.entries(data.assets).filter(([, entry]) => entry.usedBy !== 'design.md'))
    expect(Object.keys(kept).length).toBeLessThan(Object.keys(data.assets).length)
    await writeFile(state, JSON.stringify({...data, assets: kept}))
    expect(await measured()).toMatchObject({status: 'ok', launches: 1, rendered: 0})
  })

  it('a changed diagram is rendered and uploaded once, and the body written once', async () => {
    await edit(path.join(dir, 'design.md'), 'B[Push]', 'B[Publish]')
    // One upload and one update.
    expect(await measured()).toEqual({status: 'ok', launches: 2, rendered: 1, uploads: 1, writes: 2})
  })

  it('a diagram mermaid refuses stays a code block, with a warning naming file, line and mermaid message', async () => {
    await edit(path.join(dir, 'design.md'), 'A[Write] --> B[Publish]', 'A[Write] --> --> B[')
    const result = await pushOnce()
    expect(result.status).toBe('ok')
    const warning = result.plan.diagnostics.find((d) => d.rule === 'diagram-render-failed')
    expect(warning).toMatchObject({severity: 'warning', file: 'design.md', line: 7})
    expect(warning!.message).toMatch(/Parse error on line 2/)
    const body = await remoteBody(root, 'Design')
    expect(body).toContain('```mermaid\nflowchart LR\n  A[Write] --> --> B[\n```')
  })

  it('an unchanged broken diagram warns again on the next push, without starting a browser', async () => {
    const launchesBefore = count.launches
    const result = await pushOnce()
    expect(result.plan.diagnostics.filter((d) => d.rule === 'diagram-render-failed')).toHaveLength(1)
    expect(count.launches).toBe(launchesBefore)
    expect(result.writes).toBe(0)
  })
})

describe.skipIf(!hasBrowser)('a folder whose render cache cannot be written', () => {
  it('still publishes the diagram (rendered to a temporary file for the run)', async () => {
    const dir = await newFolder()
    await mkdir(path.join(dir, '.kbsync'))
    // A file where the cache folder would be: nothing can be written there.
    await writeFile(path.join(dir, '.kbsync/diagrams'), 'not a folder\n')
    await writeFile(path.join(dir, 'a.md'), `# A\n\n\`\`\`mermaid\n${flowchart}\`\`\`\n`)
    const root = (await local.client.createItem({type: 'topic', title: 'Read-only cache', parent_topic_id: null})).id
    const result = await push({dir, client: local.client, rootTopicId: root})
    expect(result.status).toBe('ok')
    expect(await remoteBody(root, 'A')).toMatch(/^!\[flowchart LR\]\(http/m)
  })
})

describe('a push with no diagram', () => {
  it('never starts a browser', async () => {
    const dir = await newFolder()
    await writeFile(path.join(dir, 'plain.md'), '# Plain\n\n```js\nconsole.log(1)\n```\n')
    const {count, launch} = counters()
    const root = (await local.client.createItem({type: 'topic', title: 'No diagrams', parent_topic_id: null})).id
    const result = await push({dir, client: local.client, rootTopicId: root, diagrams: {launch}})
    expect(result.status).toBe('ok')
    expect(count.launches).toBe(0)
  })
})

describe('without a browser', () => {
  it('every Mermaid block stays code, with one warning for the run naming what to install', async () => {
    const dir = await newFolder()
    await writeFile(
      path.join(dir, 'a.md'),
      `# A\n\n\`\`\`mermaid\n${flowchart}\`\`\`\n\n\`\`\`mermaid\nsequenceDiagram\n  A->>B: hi\n\`\`\`\n`
    )
    const root = (await local.client.createItem({type: 'topic', title: 'No browser', parent_topic_id: null})).id
    local.server.resetLog()
    const run = await cli(['push', dir, '--root-topic', root], {...local.env, KBSYNC_BROWSER: '/nonexistent/chromium'})
    expect(run.code).toBe(0)
    const output = run.out + run.err
    expect(output.match(/no browser to render them/g)).toHaveLength(1)
    expect(output).toContain('/nonexistent/chromium')
    expect(output).toContain('apt install chromium')
    expect(uploadsSeen(local)).toBe(0)
    const body = await remoteBody(root, 'A')
    expect(body).toContain('```mermaid\nflowchart LR')
    expect(body).toContain('```mermaid\nsequenceDiagram')
  })
})
