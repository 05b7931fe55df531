/**
 * End-to-end: Docsy's `_param` shortcode (`{{% _param NAME arg1 arg2 %}}`
 * prints the parameter NAME with `{0}` the name and `{1}`, `{2}`... its
 * arguments) pushed through the CLI. A parameter the site defines is
 * printed with its placeholders filled; one it does not is left out with
 * the parameter's own warning (`kb-shortcode-parameter`). Before: every
 * `_param` was an unknown shortcode, left out with its arguments
 * (`kb-shortcode-unknown`), so a badge's label never reached readers.
 */
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {useLocalServer} from './local-server.js'
import {bodyOf, cli, flatten} from './push-helpers.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'

const local = useLocalServer()
const folders = temporaryFolders('hugo-param')
let repo: string

beforeAll(async () => {
  repo = await folders.make()
  await writeFiles(repo, {
    '.git/HEAD': 'ref: refs/heads/main\n',
    'hugo.yaml': ['params:', '  BADGE: <span class="badge text-bg-{2}">{1}</span>', '  version: 0.14.0', ''].join('\n'),
    'content/blog/release.md': [
      '---',
      'title: Release',
      'params:',
      '  LEAD: "Release {1} of {0}, {1} again"',
      '---',
      '',
      '- Review {{% _param BADGE BREAKING warning %}} changes.',
      '- {{% _param LEAD 0.14 %}}; Docsy {{% param version %}}.',
      '- An icon {{% _param NOWHERE palette success %}} left out.',
      '- In code: `{{% _param BADGE NEW info %}}`.',
      ''
    ].join('\n')
  })
})

afterAll(() => folders.removeAll())

describe("Docsy's _param", () => {
  it('prints the parameter with its placeholders filled, and names one the site lacks', async () => {
    const root = (await local.client.createItem({type: 'topic', title: 'docsy', parent_topic_id: null})).id
    const run = await cli(['push', path.join(repo, 'content'), '--root-topic', root], local.env)
    expect(run.code).toBe(0)
    const release = flatten(await local.client.getTree(root)).find((entry) => entry.titlePath.endsWith('Release'))!
    const body = bodyOf(await local.client.getItem(release.id))
    expect(body).toContain('- Review BREAKING changes.')
    expect(body).toContain('- Release 0.14 of LEAD, 0.14 again; Docsy 0.14.0.')
    expect(body).toMatch(/^- An icon +left out\.$/m)
    expect(body).toContain('`{{% _param BADGE NEW info %}}`')
    expect(run.err).toMatch(/The parameter `NOWHERE`.*\[kb-shortcode-parameter\]/)
    expect(run.err).not.toContain('kb-shortcode-unknown')
  })
})
