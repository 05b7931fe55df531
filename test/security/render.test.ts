/**
 * Issue 28, renderers and SVGs: what a repository puts in a diagram or an
 * SVG is data. End to end through the built CLI against the real local
 * server, with Debian's Chromium: the Mermaid page reaches no network
 * (a recording loopback server sees nothing), a diagram's own configuration
 * cannot turn HTML labels back on, `.kbsync/diagrams/` is a cache that is
 * checked (a planted link or script is never uploaded), and every SVG
 * uploaded is sanitised, a no-op push uploading nothing.
 */
import {spawn} from 'node:child_process'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {mkdir, readFile, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {chromium} from 'playwright-core'
import {diagramPath, findBrowser, headlessArgs, mermaidKey} from '../../src/diagrams/index.js'
import {MermaidRenderer} from '../../src/diagrams/mermaid-render.js'
import {sanitiseSvg} from '../../src/trust/index.js'
import {useLocalServer} from '../e2e/local-server.js'
import {bodyOf} from '../e2e/push-helpers.js'
import {builtCli} from '../built.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'
import {uploadsSeen} from '../diagrams/helpers.js'

const browser = findBrowser(process.env.KBSYNC_BROWSER)
const hasBrowser = 'path' in browser
if (!hasBrowser)
  console.warn(
    `Skipping the renderer tests: no Chromium (looked for ${browser.missing.join(', ')}; apt-get install chromium)`
  )

const local = useLocalServer()
const folders = temporaryFolders('render')

/** A loopback server that records every request: what a diagram names must never reach it. */
const recorder = {seen: [] as string[], server: undefined as Server | undefined, url: ''}
beforeAll(async () => {
  const server = createServer((request, response) => {
    recorder.seen.push(request.url ?? '')
    response.end('<svg xmlns="http://www.w3.org/2000/svg"/>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  recorder.server = server
  recorder.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => recorder.server?.close(resolve))
  await folders.removeAll()
})

/** Runs the built CLI (`kbsync <argv>`) against the local server, with the found Chromium. */
function kbsync(argv: string[]): Promise<{code: number | null; out: string; err: string}> {
  const child = spawn(process.execPath, [builtCli, ...argv], {
    env: {...process.env, ...local.env, KBSYNC_BROWSER: 'path' in browser ? browser.path : ''},
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (data) => (out += String(data)))
  child.stderr.on('data', (data) => (err += String(data)))
  return new Promise((resolve) => child.on('close', (code) => resolve({code, out, err})))
}

/** A folder holding `files`, and a root topic of its own on the server. */
async function place(files: Record<string, string>): Promise<{dir: string; root: string}> {
  const dir = await folders.make()
  await writeFiles(dir, files)
  const root = (await local.client.createItem({type: 'topic', title: `Root ${Math.random()}`, parent_topic_id: null}))
    .id
  return {dir, root}
}

/** Pushes `dir` to `root` through the CLI; expects success. */
async function push(dir: string, root: string): Promise<string> {
  const run = await kbsync(['push', dir, '--root-topic', root])
  expect(run.code, run.out + run.err).toBe(0)
  return run.out + run.err
}

/** The bytes of every file the bodies under `root` reference (the uploads, as the server holds them). */
async function uploaded(root: string): Promise<string[]> {
  const files: string[] = []
  const scratch = await folders.make()
  for (const node of await local.client.getTree(root)) {
    const body = bodyOf(await local.client.getItem(node.id))
    for (const url of body.match(/https?:\/\/[^"'\s)]+\/services\/kb\?Id=[0-9a-fA-F-]{36}/g) ?? []) {
      const target = path.join(scratch, `${files.length}.bin`)
      await local.client.downloadFile(url, target)
      files.push(await readFile(target, 'utf8'))
    }
  }
  return files
}

/** What no uploaded SVG may hold: scripts, handlers, HTML, references out of the image. */
function expectClean(svg: string): void {
  expect(svg).toMatch(/<svg[\s>]/)
  expect(svg).not.toMatch(/<script|<foreignObject|\son\w+\s*=|127\.0\.0\.1|javascript:/i)
  expect(svg).not.toMatch(/(?:href|url\()\s*=?\s*["']?\s*https?:/i)
}

/** A push renders in Chromium: on a loaded machine (7 engineers on 2 cores) that takes far longer than the default 30 s. */
const slow = 240_000

const fence = (source: string) => '```mermaid\n' + source + '\n```\n'

describe.skipIf(!hasBrowser)('renderers without a network, SVGs sanitised, the diagram cache checked', () => {
  it(
    'the Mermaid page fetches nothing a diagram names (themeCSS url(), an image shape, a click link)',
    async () => {
      recorder.seen.length = 0
      const u = (name: string) => `${recorder.url}/${name}`
      const themed =
        `%%{init: {"themeCSS": ".node rect { fill: url(${u('theme-css')}) } @import url(${u('import')});"}}%%\n` +
        `flowchart LR\n  A[Start] --> B[End]\n  click B href "${u('click')}"`
      const shape = `flowchart LR\n  A --> B@{ img: "${u('image-shape')}", label: "pic", pos: "t", w: 60, h: 60 }`
      const {dir, root} = await place({
        'themed.md': `# Themed\n\n${fence(themed)}`,
        'shape.md': `# Shape\n\n${fence(shape)}`
      })
      await push(dir, root)
      expect(recorder.seen).toEqual([])
      const files = await uploaded(root)
      expect(files.length).toBeGreaterThan(0)
      for (const svg of files) expectClean(svg)
    },
    slow
  )

  it(
    'a directive or front matter cannot turn HTML labels back on',
    async () => {
      const directive =
        '%%{init: {"htmlLabels": true, "flowchart": {"htmlLabels": true}}}%%\nflowchart LR\n  A[One] --> B[Two]'
      const frontMatter =
        '---\nconfig:\n  htmlLabels: true\n  flowchart:\n    htmlLabels: true\n---\nflowchart LR\n  C[Three] --> D[Four]'
      const {dir, root} = await place({'a.md': `# A\n\n${fence(directive)}`, 'b.md': `# B\n\n${fence(frontMatter)}`})
      await push(dir, root)
      const files = await uploaded(root)
      expect(files).toHaveLength(2)
      for (const svg of files) {
        expect(svg).not.toContain('foreignObject')
        expect(svg).toMatch(/One|Three/)
      }
    },
    slow
  )

  it(
    'a planted link in .kbsync/diagrams/ is never uploaded: the diagram is rendered afresh',
    async () => {
      const outside = 'flowchart LR\n  Out --> Side'
      const inside = 'flowchart LR\n  In --> Repo'
      const secret = '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic c2VjcmV0LXRva2Vu\n'
      const {dir, root} = await place({
        'out.md': `# Out\n\n${fence(outside)}`,
        'in.md': `# In\n\n${fence(inside)}`,
        '.git/config': secret
      })
      for (const [source, target] of [
        [outside, '/etc/hostname'],
        [inside, '../../.git/config']
      ] as const) {
        const key = mermaidKey(source)
        await mkdir(path.join(dir, '.kbsync/diagrams'), {recursive: true})
        // The source beside it is right: only the rendering is a link.
        await writeFile(path.join(dir, diagramPath(key).replace(/\.svg$/, '.mmd')), source + '\n')
        await symlink(target, path.join(dir, diagramPath(key)))
      }
      await push(dir, root)
      const hostname = await readFile('/etc/hostname', 'utf8')
      const files = await uploaded(root)
      expect(files).toHaveLength(2)
      for (const svg of files) {
        expectClean(svg)
        expect(svg).not.toContain('extraheader')
        if (hostname.trim() !== '') expect(svg.trim()).not.toBe(hostname.trim())
      }
      expect(files.join('\n')).toMatch(/Out[\s\S]*Side|In[\s\S]*Repo/)
      expect(await readFile(path.join(dir, '.git/config'), 'utf8')).toBe(secret)
    },
    slow
  )

  it(
    'a planted cached SVG with a script is not uploaded as it is',
    async () => {
      const source = 'flowchart LR\n  Cached --> Script'
      const key = mermaidKey(source)
      const planted = `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.domain)"><script>alert(1)</script><image href="${recorder.url}/cached"/><text>Cached</text></svg>`
      const {dir, root} = await place({
        'c.md': `# C\n\n${fence(source)}`,
        [diagramPath(key)]: planted,
        [diagramPath(key).replace(/\.svg$/, '.mmd')]: source + '\n'
      })
      await push(dir, root)
      const [svg] = await uploaded(root)
      expectClean(svg!)
    },
    slow
  )

  it(
    'local SVGs and .drawio.svg files are sanitised (the draw.io diagram kept), and a second push uploads nothing',
    async () => {
      recorder.seen.length = 0
      const content =
        '&lt;mxfile host=&quot;app.diagrams.net&quot;&gt;&lt;diagram name=&quot;Page-1&quot;&gt;x&lt;/diagram&gt;&lt;/mxfile&gt;'
      const hostile = (extra: string) =>
        `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ${extra} onload="fetch('${recorder.url}/onload')" width="40" height="20">` +
        `<script>fetch('${recorder.url}/script')</script>` +
        `<style>@import url(${recorder.url}/import.css); rect { fill: url(${recorder.url}/fill) }</style>` +
        `<image href="${recorder.url}/image" x="0" y="0" width="10" height="10"/>` +
        `<image xlink:href="${recorder.url}/xlink"/>` +
        `<a href="javascript:alert(1)"><rect width="10" height="10" onclick="alert(1)" style="fill: url(${recorder.url}/style)"/></a>` +
        `<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">html</div></foreignObject>` +
        `<text x="20" y="15">kept</text></svg>\n`
      const {dir, root} = await place({
        'doc.md': '# Doc\n\n![x](img/x.svg)\n\n![flow](img/y.drawio.svg)\n',
        'img/x.svg': hostile(''),
        'img/y.drawio.svg': hostile(`content="${content}"`)
      })
      await push(dir, root)
      const files = await uploaded(root)
      expect(files).toHaveLength(2)
      for (const svg of files) {
        expectClean(svg)
        expect(svg).toContain('>kept</text>')
        expect(svg).not.toMatch(/@import|javascript/)
      }
      expect(files.filter((svg) => svg.includes(`content="${content}"`))).toHaveLength(1)
      expect(recorder.seen).toEqual([])
      local.server.resetLog()
      const again = await push(dir, root)
      expect(uploadsSeen(local)).toBe(0)
      expect(again).not.toMatch(/upload/i)
    },
    slow
  )
})

describe.skipIf(!hasBrowser)('sanitising a clean SVG keeps its drawing', () => {
  it(
    'mermaid output (flowchart, sequence, class, state) draws the same pixels once sanitised',
    async () => {
      const sources = [
        'flowchart LR\n  A[Write] --> B{Review}\n  B -->|ok| C[(Push)]\n  B -->|no| A',
        'sequenceDiagram\n  Alice->>Bob: Hello\n  Bob-->>Alice: Hi\n  Note over Alice,Bob: a note',
        'classDiagram\n  Animal <|-- Duck\n  Animal : +int age\n  Duck : +swim()',
        'stateDiagram-v2\n  [*] --> Still\n  Still --> Moving\n  Moving --> [*]'
      ]
      const renderer = new MermaidRenderer('path' in browser ? browser.path : '')
      const pairs: Array<[string, string]> = []
      try {
        for (const source of sources) {
          const outcome = await renderer.render(source)
          if (!('svg' in outcome)) throw new Error(outcome.error)
          pairs.push([outcome.svg, await sanitiseSvg(outcome.svg)])
        }
      } finally {
        await renderer.close()
      }
      const shooter = await chromium.launch({
        executablePath: 'path' in browser ? browser.path : '',
        args: [...headlessArgs]
      })
      try {
        const page = await shooter.newPage()
        const shot = async (svg: string) => {
          const data = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`
          await page.setContent(`<body style="margin:0;background:#fff"><img id="i" src="${data}"></body>`)
          await page.waitForFunction(() => (document.getElementById('i') as HTMLImageElement).complete)
          return page.locator('#i').screenshot()
        }
        for (const [original, clean] of pairs) {
          expect(clean).not.toBe('')
          expect(Buffer.compare(await shot(original), await shot(clean))).toBe(0)
        }
      } finally {
        await shooter.close()
      }
    },
    slow
  )
})
