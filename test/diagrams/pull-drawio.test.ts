/**
 * End-to-end: a pushed draw.io diagram pulled into a new folder comes back
 * as its file beside the document, referenced in the form authors write,
 * and a push after the pull writes and uploads nothing.
 */
import {mkdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {pull} from '../../src/sync/pull/index.js'
import {push} from '../../src/sync/index.js'
import {uploadsSeen, useFolders} from './helpers.js'
import {useLocalServer} from '../e2e/local-server.js'

const local = useLocalServer()
const folder = useFolders('kbsync-drawio-')

const drawioXml =
  '<mxfile><diagram name="Page-1"><mxGraphModel><root><mxCell id="0"/></root></mxGraphModel></diagram></mxfile>\n'
const svgBytes = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" content="&lt;mxfile&gt;"/>\n'

describe('draw.io diagrams pulled back', () => {
  it('come back as files beside the document; a push after the pull writes nothing', async () => {
    const source = await folder()
    await mkdir(path.join(source, 'img'))
    await writeFile(path.join(source, 'img', 'arch.drawio'), drawioXml)
    await writeFile(path.join(source, 'img', 'flow.drawio.svg'), svgBytes)
    await writeFile(
      path.join(source, 'design.md'),
      '# Design\n\n[Architecture](img/arch.drawio)\n\nAnd exported:\n\n<img src="img/flow.drawio.svg" alt="flow" width="500">\n'
    )
    const root = (await local.client.createItem({type: 'topic', title: 'Drawio pull', parent_topic_id: null})).id
    const pushed = await push({dir: source, client: local.client, rootTopicId: root})
    expect(pushed.status).toBe('ok')

    const target = await folder()
    const pulled = await pull({dir: target, client: local.client, rootTopicId: root})
    expect(pulled.status).toBe('ok')
    expect(await readFile(path.join(target, '_assets/Design/arch.drawio'), 'utf8')).toBe(drawioXml)
    expect(await readFile(path.join(target, '_assets/Design/flow.drawio.svg'), 'utf8')).toBe(svgBytes)
    const text = await readFile(path.join(target, 'Design.md'), 'utf8')
    expect(text).toContain('[arch.drawio](_assets/Design/arch.drawio)')
    expect(text).toContain('<img src="_assets/Design/flow.drawio.svg" alt="flow" width="500">')

    local.server.resetLog()
    const again = await push({dir: target, client: local.client, rootTopicId: root})
    expect(again.status).toBe('ok')
    expect(again.writes).toBe(0)
    expect(uploadsSeen(local)).toBe(0)
  })
})
