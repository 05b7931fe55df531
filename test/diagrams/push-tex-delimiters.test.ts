/**
 * End-to-end: TeX's own delimiters (`\(...\)`, `\[...\]`, Hugo's
 * passthrough as Docsy configures it, arithmatex, MathJax) pushed and
 * pulled against the local server. Each formula is published as the image
 * of its rendering, KaTeX's logos (`\KaTeX`, `\LaTeX`) included; an aside
 * in escaped parentheses stays text; a web edit pulled back leaves every
 * formula as the author wrote it, and a push after it writes nothing.
 * Before: readers saw `(\KaTeX)` and `[\int_0^1 ...]` as text.
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
const newFolder = useFolders('kbsync-tex-')

const article = [
  '---',
  'title: Formulae',
  '---',
  '',
  'With \\(\\KaTeX\\) and \\(\\LaTeX\\) you write \\(x^2 + y_{1}\\) inline; an aside \\(like this\\) stays.',
  '',
  '\\[',
  '\\int_0^1 x\\,dx = \\frac{1}{2}',
  '\\]',
  '',
  '- Scientific notation: \\(\\pu{1.2e3 kJ}\\)',
  '',
  'Again here.',
  ''
].join('\n')

describe('TeX delimiters pushed end to end', () => {
  let dir: string
  let root: string
  beforeAll(async () => {
    dir = await newFolder()
    await writeFile(path.join(dir, 'formulae.md'), article)
    root = (await local.client.createItem({type: 'topic', title: 'TeX', parent_topic_id: null})).id
  })

  it('publishes each formula as an image, the logos too, and leaves an aside as text', async () => {
    local.server.resetLog()
    const result = await push({dir, client: local.client, rootTopicId: root})
    expect(result.status).toBe('ok')
    expect(result.plan.diagnostics.filter((d) => d.rule === 'diagram-render-failed')).toEqual([])
    // \KaTeX, \LaTeX, x^2 + y_{1}, the integral, \pu{...}: five distinct formulas.
    expect(uploadsSeen(local)).toBe(5)
    const [node] = (await local.client.getTree(root)).filter((item) => item.title === 'Formulae')
    const body = bodyOf(await local.client.getItem(node!.id))
    expect(body).toMatch(/^With !\[\\KaTeX\]\(http[^)]+\) and !\[\\LaTeX\]\(http[^)]+\) you write !\[x\^2/m)
    expect(body).toContain('an aside (like this) stays.')
    expect(body).toMatch(/^!\[\\int_0\^1 [^\]]+\]\(http[^)]+\)$/m)
    expect(body).not.toMatch(/\\\(|\\\[|\(\\KaTeX\)/)
  })

  it('a web edit pulled back keeps every formula as written, and a push after it writes nothing', async () => {
    const [node] = await local.client.getTree(root)
    const item = await local.client.getItem(node!.id)
    await local.client.updateItem(node!.id, {body: bodyOf(item).replace('Again', 'Edited on the web,')})
    expect((await pull({dir, client: local.client, rootTopicId: root})).status).toBe('ok')
    expect(await readFile(path.join(dir, 'formulae.md'), 'utf8')).toBe(article.replace('Again', 'Edited on the web,'))
    local.server.resetLog()
    const again = await push({dir, client: local.client, rootTopicId: root})
    expect(again.writes).toBe(0)
    expect(uploadsSeen(local)).toBe(0)
  })
})
