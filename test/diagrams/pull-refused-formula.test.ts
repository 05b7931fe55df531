/**
 * End-to-end: formulas MathJax refuses are published as code (inline code,
 * a `math` code block), with a warning. A web edit elsewhere in the page,
 * pulled back, must leave them as the author wrote them (`$...$`, `$$`):
 * the merge renders its base as push does, so a refused formula is code
 * there too and reads as unchanged. Before, the base rendered it as an
 * image, the block read as changed on the platform, and the pull rewrote
 * the author's `$\undefinedmacro{x}$` as `` `\undefinedmacro{x}` ``.
 */
import {readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {pull} from '../../src/sync/pull/index.js'
import {push} from '../../src/sync/index.js'
import {useLocalServer} from '../e2e/local-server.js'
import {bodyOf} from '../e2e/push-helpers.js'
import {uploadsSeen, useFolders} from './helpers.js'

const local = useLocalServer()
const newFolder = useFolders('kbsync-refused-math-')

const article = [
  '---',
  'title: Formulas',
  '---',
  '',
  'A known formula $x^2 + y^2$ in a sentence.',
  '',
  'An unknown macro $\\undefinedmacro{x}$ that MathJax refuses.',
  '',
  '$$',
  '\\alsoundefined{y}',
  '$$',
  '',
  'A paragraph the web edit changes.',
  ''
].join('\n')

describe('formulas MathJax refuses, pulled back after a web edit', () => {
  let dir: string
  let root: string
  beforeAll(async () => {
    dir = await newFolder()
    await writeFile(path.join(dir, 'formulas.md'), article)
    root = (await local.client.createItem({type: 'topic', title: 'Math', parent_topic_id: null})).id
  })

  it('publishes the refused formulas as code, with a warning each', async () => {
    const result = await push({dir, client: local.client, rootTopicId: root})
    expect(result.status).toBe('ok')
    expect(result.plan.diagnostics.filter((d) => d.rule === 'diagram-render-failed')).toHaveLength(2)
    const [node] = await local.client.getTree(root)
    const body = bodyOf(await local.client.getItem(node!.id))
    expect(body).toContain('An unknown macro `\\undefinedmacro{x}` that')
    expect(body).toContain('```math\n\\alsoundefined{y}\n```')
    expect(body).toMatch(/A known formula !\[x\^2 \+ y\^2\]\(http/)
  })

  it('a web edit elsewhere changes only its own line, and a push after it writes nothing', async () => {
    const [node] = await local.client.getTree(root)
    const item = await local.client.getItem(node!.id)
    const edited = bodyOf(item).replace('the web edit changes', 'the web edited')
    await local.client.updateItem(node!.id, {body: edited})
    const pulled = await pull({dir, client: local.client, rootTopicId: root})
    expect(pulled.status).toBe('ok')
    const text = await readFile(path.join(dir, 'formulas.md'), 'utf8')
    expect(text).toBe(article.replace('the web edit changes', 'the web edited'))
    local.server.resetLog()
    const again = await push({dir, client: local.client, rootTopicId: root})
    expect(again.writes).toBe(0)
    expect(uploadsSeen(local)).toBe(0)
  })
})
