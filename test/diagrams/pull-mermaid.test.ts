/**
 * End-to-end: an article whose Mermaid diagram push published as an image,
 * edited on the platform and pulled back into the folder that pushed it,
 * gets its Mermaid block back (the source kept by its key beside the
 * rendering), and a push after the pull writes, renders and uploads nothing.
 */
import {existsSync} from 'node:fs'
import {readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {findBrowser} from '../../src/diagrams/index.js'
import {pull} from '../../src/sync/pull/index.js'
import {push} from '../../src/sync/index.js'
import {useFolders} from './helpers.js'
import {useLocalServer} from '../e2e/local-server.js'

const hasBrowser = 'path' in findBrowser()
const local = useLocalServer()
const newFolder = useFolders('kbsync-mermaid-pull-')

describe.skipIf(!hasBrowser)('a Mermaid diagram pulled back', () => {
  it('is a Mermaid block again, and a push after the pull costs nothing', async () => {
    const dir = await newFolder()
    const block = '```mermaid\nsequenceDiagram\n  Writer->>Platform: push\n```'
    await writeFile(path.join(dir, 'flow.md'), `---\ntitle: Flow\n---\n\nBefore.\n\n${block}\n`)
    const root = (await local.client.createItem({type: 'topic', title: 'Mermaid pull', parent_topic_id: null})).id
    expect((await push({dir, client: local.client, rootTopicId: root})).status).toBe('ok')
    const [node] = await local.client.getTree(root)
    const item = await local.client.getItem(node!.id)
    expect(item.body).toMatch(/!\[sequenceDiagram\]\(http/)
    await local.client.updateItem(node!.id, {body: item.body!.replace('Before.', 'Edited on the web.')})

    const pulled = await pull({dir, client: local.client, rootTopicId: root})
    expect(pulled.status).toBe('ok')
    const text = await readFile(path.join(dir, 'flow.md'), 'utf8')
    expect(text).toContain('Edited on the web.')
    expect(text).toContain(block)
    // The image is not downloaded: the block stands for it.
    expect(existsSync(path.join(dir, '_assets'))).toBe(false)

    local.server.resetLog()
    const again = await push({dir, client: local.client, rootTopicId: root})
    expect(again.status).toBe('ok')
    expect(again.writes).toBe(0)
    expect(again.plan.diagnostics.filter((d) => d.rule?.startsWith('diagram-'))).toEqual([])
  })
})
