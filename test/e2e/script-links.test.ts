/**
 * End-to-end: no link that runs a script (`javascript:`, `vbscript:`,
 * `data:text/html`) is published, whatever its form: Markdown links,
 * references, autolinks, HTML `<a>`/`<area>`/`<img>`/`<form>`, MDX props,
 * the dialect's own attachment and video tags, spellings with entities,
 * controls and case. Each form is pushed through the CLI to the local
 * server, and the stored body is read back.
 */
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {run} from '../cli/helpers.js'
import {temporaryFolders} from '../temp-folders.js'
import {useLocalServer} from './local-server.js'
import {bodyOf, flatten} from './push-helpers.js'
import {liveScripts} from '../dialect/live-scripts.js'

const local = useLocalServer()
const folders = temporaryFolders('e2e-script-links')
afterAll(() => folders.removeAll())

const forms: Record<string, string> = {
  inline: '[click](javascript:alert(1))',
  inlineAngle: '[click](<javascript:alert(1)>)',
  upper: '[click](JaVaScRiPt:alert(1))',
  vbscript: '[click](vbscript:msgbox)',
  dataHtml: '[click](data:text/html,<script>alert(1)</script>)',
  reference: '[click][r]\n\n[r]: javascript:alert(1)',
  collapsed: '[r][]\n\n[r]: javascript:alert(1)',
  autolink: '<javascript:alert(1)>',
  entityTab: '[click](java&#09;script:alert(1))',
  entityColon: '[click](javascript&colon;alert(1))',
  entityJ: '[click](&#106;avascript:alert(1))',
  percent: '[click](java%0Ascript:alert(1))',
  htmlA: '<a href="javascript:alert(1)">click</a>',
  htmlAEntity: '<a href="java&#x09;script:alert(1)">click</a>',
  htmlABlock: '<p><a href="javascript:alert(1)">click</a></p>',
  htmlArea: '<map name="m"><area shape="rect" coords="0,0,1,1" href="javascript:alert(1)"></map>',
  htmlDiv: '<div>\n<a href="JAVASCRIPT:alert(1)">click</a>\n</div>',
  htmlForm: '<form action="javascript:alert(1)"><button>go</button></form>',
  htmlIframe: '<iframe src="javascript:alert(1)"></iframe>',
  htmlImg: '<img src="javascript:alert(1)" width="10">',
  image: '![x](javascript:alert(1))',
  imageData: '![x](data:text/html,hi)',
  kbAttachment: '<div data-node="attachmentsGroup"><a data-node="attachment" href="javascript:alert(1)">f</a></div>',
  kbVideo: '<video src="javascript:alert(1)"></video>',
  spaceLead: '[click]( javascript:alert(1))',
  nbsp: '[click](&nbsp;javascript:alert(1))',
  linkTitle: '[click](javascript:alert(1) "t")',
  inList: '- [click](javascript:alert(1))',
  inTable: '| a |\n| --- |\n| [click](javascript:alert(1)) |',
  inHeading: '## [click](javascript:alert(1))',
  mdxLink: '<Link href="javascript:alert(1)">click</Link>',
  mdxExpr: '<a href={"javascript:alert(1)"}>click</a>',
  hugoRef: '[click]({{< ref "javascript:alert(1)" >}})',
  hugoButton: '{{< button href="javascript:alert(1)" >}}click{{< /button >}}',
  mkdocsAttr: '[click](javascript:alert(1)){ .md-button }',
  jsxCard: '<LinkCard title="click" href="javascript:alert(1)" />',
  wikiAuto: 'see javascript:alert(1) here',
  imgLinked: '[![x](a.png)](javascript:alert(1))'
}

describe('links that run a script', () => {
  it('are published as their text whatever their form, each with a warning; every document is published', async () => {
    const repo = await folders.make()
    await mkdir(path.join(repo, '.git'))
    for (const [name, form] of Object.entries(forms)) {
      const ext = name.startsWith('mdx') || name.startsWith('jsx') ? 'mdx' : 'md'
      await writeFile(path.join(repo, `${name}.${ext}`), `# ${name}\n\nText before.\n\n${form}\n`)
    }
    const root = (await local.client.createItem({type: 'topic', title: 'Scripts', parent_topic_id: null})).id
    const pushed = await run(['push', '--broken-links=warn', '--root-topic', root], {cwd: repo, env: local.env})
    // An attachment whose address runs a script was replaced by its name inside its group: the article failed.
    expect(pushed.err).not.toMatch(/^error/m)
    expect(pushed.code).toBe(0)
    expect(pushed.err).toMatch(/kb-script-url/)
    const entries = flatten(await local.client.getTree(root))
    expect(entries.map((entry) => entry.titlePath).sort()).toEqual(Object.keys(forms).sort())
    for (const entry of entries) {
      const body = bodyOf(await local.client.getItem(entry.id))
      expect({[entry.titlePath]: liveScripts(body)}).toEqual({[entry.titlePath]: []})
      expect(body).toContain('Text before.')
    }
  })
})
