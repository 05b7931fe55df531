/**
 * The SVG sanitiser in process (`src/trust/svg.ts`, `svg-css.ts`): what a
 * hostile SVG loses, what a clean one keeps. The end-to-end upload cases are
 * in `test/security/render.test.ts`.
 */
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {isSvg, sanitiseSvg, SvgRefused, svgUploadBytes} from '../../src/trust/svg.js'
import {cleanDeclarations, cleanStylesheet, valueFetchesOutside} from '../../src/trust/svg-css.js'
import {temporaryFolders} from '../temp-folders.js'

const folders = temporaryFolders('trust-svg')
afterAll(() => folders.removeAll())

const ns = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'

describe('sanitiseSvg', () => {
  it('drops scripts, handlers, foreign objects, animation and external references', async () => {
    const hostile = `<?xml version="1.0" encoding="ISO-8859-1"?>
<svg ${ns} viewBox="0 0 10 10" onload="alert(1)">
  <script>alert(2)</script>
  <!-- a comment -->
  <foreignObject><div xmlns="http://www.w3.org/1999/xhtml">html</div></foreignObject>
  <set attributeName="href" to="javascript:alert(3)"/>
  <animate attributeName="x" values="0;1"/>
  <image href="http://127.0.0.1:9/x.png" width="1" height="1"/>
  <image xlink:href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>
  <a href="javascript:alert(4)"><text>t</text></a>
  <use href="#shape"/>
  <rect id="shape" style="fill: url(http://127.0.0.1:9/f)" fill="url(#grad)" width="5" height="5"/>
  <style>@import url(http://127.0.0.1:9/s.css); rect { fill: url( "http://127.0.0.1:9/g" ) } .ok { fill: red }</style>
</svg>`
    const clean = await sanitiseSvg(hostile)
    expect(clean.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true)
    for (const gone of [
      '<script',
      'onload',
      'foreignObject',
      '<set',
      '<animate',
      '127.0.0.1',
      'javascript:',
      '@import',
      'a comment'
    ])
      expect(clean).not.toContain(gone)
    for (const kept of ['viewBox="0 0 10 10"', 'href="#shape"', 'url(#grad)', 'data:image/png;base64', '.ok'])
      expect(clean).toContain(kept)
  })

  it('sanitises an SVG embedded in an image, and keeps a draw.io diagram on the root only', async () => {
    const inner = Buffer.from(`<svg ${ns}><script>alert(1)</script><rect width="1" height="1"/></svg>`).toString(
      'base64'
    )
    const svg = `<svg ${ns} content="&lt;mxfile/&gt;"><g content="x"/><image href="data:image/svg+xml;base64,${inner}"/></svg>`
    const clean = await sanitiseSvg(svg)
    expect(clean).toContain('content="&lt;mxfile/&gt;"')
    expect(clean).not.toContain('<g content')
    const embedded = /data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/.exec(clean)
    expect(embedded).not.toBeNull()
    expect(Buffer.from(embedded![1]!, 'base64').toString('utf8')).not.toContain('script')
  })

  it('refuses what is not an SVG document', async () => {
    await expect(sanitiseSvg('<svg><unclosed></svg>')).rejects.toThrow(SvgRefused)
    await expect(sanitiseSvg(`<html ${ns}></html>`)).rejects.toThrow(SvgRefused)
  })

  it('is idempotent', async () => {
    const once = await sanitiseSvg(`<svg ${ns}><style>.a{fill:url(#g)}</style><rect class="a" onclick="x()"/></svg>\n`)
    expect(await sanitiseSvg(once)).toBe(once)
  })
})

describe('the CSS rule', () => {
  it('keeps fragments and drops every other fetch, however it is spelled', () => {
    expect(valueFetchesOutside('url(#a)')).toBe(false)
    expect(valueFetchesOutside('url(http://x/y)')).toBe(true)
    expect(valueFetchesOutside('\\75 rl(http://x/y)')).toBe(true)
    expect(valueFetchesOutside('image-set("a.png" 1x)')).toBe(true)
    expect(cleanStylesheet('@import "x.css"; a { fill: url(#b) } b { fill: url(//x/c) }')).not.toMatch(/import|\/\/x/)
    expect(cleanDeclarations('fill: url(/*c*/http://x/y); stroke: red')).toContain('stroke')
    expect(cleanDeclarations('fill: url(/*c*/http://x/y); stroke: red')).not.toContain('http')
  })
})

describe('svgUploadBytes', () => {
  it('sanitises an SVG by its name or its first bytes, passes other files, refuses .svgz', async () => {
    const dir = await folders.make()
    await mkdir(dir, {recursive: true})
    const named = path.join(dir, 'x.png')
    await writeFile(named, `<svg ${ns}><script>1</script></svg>`)
    expect(isSvg('x.png', Buffer.from(`<?xml version="1.0"?><svg ${ns}/>`))).toBe(true)
    expect(isSvg('x.png', Buffer.from('\x89PNG'))).toBe(false)
    expect((await svgUploadBytes(named, 'x.png'))!.toString('utf8')).not.toContain('script')
    const png = path.join(dir, 'y.png')
    await writeFile(png, Buffer.from([0x89, 0x50, 0x4e, 0x47]))
    expect(await svgUploadBytes(png, 'y.png')).toBeUndefined()
    await expect(svgUploadBytes(png, 'z.svgz')).rejects.toThrow(/compressed/)
  })
})
