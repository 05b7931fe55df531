/**
 * End-to-end: math pushed and pulled through the real client against the
 * real local server. Each distinct formula is rendered by MathJax and
 * uploaded once as an SVG the body references (display formulas as a
 * paragraph's image, inline ones in the text); a second push uploads
 * nothing; a pull gives the `$$` blocks and `$...$` back, and a push after
 * it writes nothing; a formula MathJax refuses stays code with a warning
 * naming TeX's message.
 */
import {readdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {pull} from '../../src/sync/pull/index.js'
import {push} from '../../src/sync/index.js'
import {useLocalServer} from '../e2e/local-server.js'
import {bodyOf} from '../e2e/push-helpers.js'
import {uploadsSeen, useFolders} from './helpers.js'

const local = useLocalServer()
const newFolder = useFolders('kbsync-math-')

const article = [
  '---',
  'title: Physics',
  '---',
  '',
  'Energy and mass: $E = mc^2$, where $c$ is the speed of light; it costs $5 and $10.',
  '',
  '$$',
  '\\int_0^1 x^2 \\, dx = \\frac{1}{3}',
  '$$',
  '',
  '```math',
  '\\sum_{i=1}^n i = \\frac{n(n+1)}{2}',
  '```',
  '',
  'Again $c$ here.',
  ''
].join('\n')

async function remoteBody(root: string, title: string): Promise<string> {
  const [node] = (await local.client.getTree(root)).filter((item) => item.title === title)
  return bodyOf(await local.client.getItem(node!.id))
}

describe('math pushed end to end', () => {
  let dir: string
  let root: string
  beforeAll(async () => {
    dir = await newFolder()
    await writeFile(path.join(dir, 'physics.md'), article)
    root = (await local.client.createItem({type: 'topic', title: 'Math', parent_topic_id: null})).id
  })

  it('uploads one SVG per distinct formula and references each in the body', async () => {
    local.server.resetLog()
    const result = await push({dir, client: local.client, rootTopicId: root})
    expect(result.status).toBe('ok')
    // E = mc^2, c (twice), the integral, the sum: four distinct formulas.
    expect(uploadsSeen(local)).toBe(4)
    const rendered = result.plan.diagnostics.filter((d) => d.rule === 'diagram-rendered').map((d) => d.message)
    expect(rendered).toEqual(['Rendered 2 formulas and 2 inline formulas to SVG'])
    const body = await remoteBody(root, 'Physics')
    expect(body).toMatch(/^Energy and mass: !\[E = mc\^2\]\(http[^)]+\), where !\[c\]\(http[^)]+\) is the speed/m)
    expect(body).toContain('it costs $5 and $10.')
    expect(body).toMatch(/^!\[\\int_0\^1 x\^2 [^\]]+\]\(http[^)]+\)$/m)
    expect(body).toMatch(/^!\[\\sum[^\]]+\]\(http[^)]+\)$/m)
    expect(body).not.toContain('```')
    expect(body).not.toContain('$$')
    const svgs = (await readdir(path.join(dir, '.kbsync/diagrams'))).filter((name) => name.endsWith('.svg'))
    expect(svgs).toHaveLength(4)
    const svg = await readFile(
      path.join(
        dir,
        '.kbsync/diagrams',
        svgs.find((name) => name.startsWith('math-'))!
      ),
      'utf8'
    )
    // Sized in pixels, so the image sits in the text at its size.
    expect(svg).toMatch(/^<svg [^>]*width="[\d.]+" height="[\d.]+"/)
  })

  it('a second push renders, uploads and writes nothing', async () => {
    local.server.resetLog()
    const result = await push({dir, client: local.client, rootTopicId: root})
    expect(result.writes).toBe(0)
    expect(uploadsSeen(local)).toBe(0)
    expect(result.plan.diagnostics.filter((d) => d.rule === 'diagram-rendered')).toEqual([])
  })

  it('a pull gives the formulas back as written, and a push after it writes nothing', async () => {
    const [node] = await local.client.getTree(root)
    const item = await local.client.getItem(node!.id)
    await local.client.updateItem(node!.id, {body: bodyOf(item).replace('Again', 'Edited on the web,')})
    expect((await pull({dir, client: local.client, rootTopicId: root})).status).toBe('ok')
    // The web edit is merged into the file (issue 31): every formula stays as the author wrote it, ```math included.
    const text = await readFile(path.join(dir, 'physics.md'), 'utf8')
    expect(text).toBe(article.replace('Again', 'Edited on the web,'))
    local.server.resetLog()
    const again = await push({dir, client: local.client, rootTopicId: root})
    expect(again.writes).toBe(0)
    expect(uploadsSeen(local)).toBe(0)
  })
})

describe('a formula MathJax refuses', () => {
  it('stays code, with one warning per file naming TeX message, the others rendered', async () => {
    const dir = await newFolder()
    await writeFile(
      path.join(dir, 'broken.md'),
      '# Broken\n\nFine $a+b$ here.\n\n$$\n\\frac{1}{\n$$\n\nAnd $$\\undefinedmacro{x}$$ inline, and $\\alsoundefined$.\n'
    )
    const root = (await local.client.createItem({type: 'topic', title: 'Broken math', parent_topic_id: null})).id
    const result = await push({dir, client: local.client, rootTopicId: root})
    expect(result.status).toBe('ok')
    const warnings = result.plan.diagnostics.filter((d) => d.rule === 'diagram-render-failed')
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toMatchObject({severity: 'warning', file: 'broken.md', line: 5})
    expect(warnings[0]!.message).toMatch(/MathJax could not render this formula \(Missing close brace\)/)
    expect(warnings[1]!.message).toMatch(
      /MathJax could not render 2 inline formulas of this file.*Undefined control sequence/
    )
    const body = await remoteBody(root, 'Broken')
    expect(body).toMatch(/^Fine !\[a\+b\]\(http/m)
    expect(body).toContain('```math\n\\frac{1}{\n```')
    expect(body).toContain('And `\\undefinedmacro{x}` inline, and `\\alsoundefined`.')
  })
})
