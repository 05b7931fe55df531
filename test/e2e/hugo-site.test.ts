/**
 * End-to-end: a Hugo site's content pushed through the CLI to the real local
 * server. Drafts, headless bundles and pages built with `render: never` are
 * not published (each kind said in one info line); shortcodes become the
 * dialect's blocks, `param` takes the page's front matter or the site's
 * `params` from `hugo.toml`, `ref` links to the document; no shortcode is
 * left as text, and a second push writes nothing.
 */
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {useLocalServer} from './local-server.js'
import {bodyOf, cli, flatten} from './push-helpers.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'

const local = useLocalServer()
const folders = temporaryFolders('hugo')
let repo: string

beforeAll(async () => {
  repo = await folders.make()
  await writeFiles(repo, {
    '.git/HEAD': 'ref: refs/heads/main\n',
    'hugo.toml': 'baseURL = "https://example.org/"\n\n[params]\nhugoVersion = "0.158.0"\n# a comment\n',
    'content/docs/guide.md': [
      '---',
      'title: Guide',
      'canonical_url: https://example.org/original',
      '---',
      '',
      '{{% alert title="Heads up" color="warning" %}}',
      'Read [the other page]({{< ref "other.md" >}}) first.',
      '{{% /alert %}}',
      '',
      'Needs Hugo {{% param hugoVersion %}}; first published at <{{% param canonical_url %}}>.',
      '',
      '```go-html-template',
      '{{</* alert */>}}',
      '```',
      '',
      '{{< readfile file="includes/config.yaml" code="true" lang="yaml" >}}',
      '',
      '{{% readfile "/docs/_common/snippet.md" %}}',
      ''
    ].join('\n'),
    'content/docs/includes/config.yaml': 'kind: pipeline\nsteps:\n  - build\n',
    'content/docs/other.md': '---\ntitle: Other\n---\n\nThe other page.\n',
    'content/docs/draft.md': '---\ntitle: Draft\ndraft: true\n---\n\nNot yet.\n',
    'content/docs/hidden.md': '---\ntitle: Hidden\n_build:\n  list: never\n  render: never\n---\n\nNo page.\n',
    'content/docs/_common/index.md': '---\nheadless: true\n---\n\nShared resources.\n',
    'content/docs/_common/snippet.md': 'A snippet for other pages.\n'
  })
})

afterAll(() => folders.removeAll())

describe('a Hugo site', () => {
  it('publishes its pages, not its drafts, headless bundles or unrendered pages; shortcodes converted', async () => {
    const root = (await local.client.createItem({type: 'topic', title: 'hugo', parent_topic_id: null})).id
    const dir = path.join(repo, 'content')
    const run = await cli(['push', dir, '--root-topic', root, '--broken-links=warn', '--verbose'], local.env)
    expect(run.code).toBe(0)
    expect(run.err).toMatch(/1 draft .* not published: docs\/draft\.md/)
    expect(run.err).toMatch(/2 documents of headless bundles .* not published/)
    expect(run.err).toMatch(/1 document the site does not render .* not published: docs\/hidden\.md/)
    const entries = flatten(await local.client.getTree(root))
    const titles = entries.map((entry) => entry.titlePath).sort()
    expect(titles).toEqual(['docs', 'docs / Guide', 'docs / Other'])
    const guide = entries.find((entry) => entry.titlePath === 'docs / Guide')!
    const body = bodyOf(await local.client.getItem(guide.id))
    const other = entries.find((entry) => entry.titlePath === 'docs / Other')!
    expect(body).toContain('<div data-node="hintBlock" data-color="orangeYellow">')
    expect(body).toContain(`data-article-id="${other.id}"`)
    expect(body).toContain('Needs Hugo 0.158.0; first published at <https://example.org/original>.')
    expect(body).toContain('```go-html-template\n{{< alert >}}\n```')
    expect(body).toContain('```yaml\nkind: pipeline\nsteps:\n  - build\n```')
    // The headless bundle is no page, but its files are still read by readfile.
    expect(body).toContain('A snippet for other pages.')
    expect(body.replace(/```[^]*?```/g, '')).not.toMatch(/\{\{[<%]/)
    local.server.resetLog()
    const again = await cli(['push', dir, '--root-topic', root, '--broken-links=warn'], local.env)
    expect(again.code).toBe(0)
    expect(local.server.counts().writes).toBe(0)
  })
})
