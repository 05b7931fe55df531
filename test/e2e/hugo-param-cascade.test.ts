/**
 * End-to-end: Hugo's `cascade` pushed through the CLI. A `{{% param %}}` /
 * Docsy `{{% _param %}}` prints a value an ancestor `_index.md` (or the
 * site's configuration) hands down with `cascade`, with Hugo's precedence:
 * the page's own front matter, then its own cascade, the nearest
 * ancestor's, farther ones, the configuration's cascade, and last the
 * site's `params`; a cascade with a `target` reaches only the pages it
 * names. A `_param` whose arguments run onto the next line (as Docsy's own
 * release notes write it) is read as one tag, and the lines after it keep
 * their numbers in messages. Before: only the page's front matter and the
 * site's `params` were read, and a tag over two lines was left out with a
 * warning.
 */
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {useLocalServer} from './local-server.js'
import {bodyOf, cli, flatten} from './push-helpers.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'

const local = useLocalServer()
const folders = temporaryFolders('hugo-cascade')
let repo: string

beforeAll(async () => {
  repo = await folders.make()
  await writeFiles(repo, {
    '.git/HEAD': 'ref: refs/heads/main\n',
    'hugo.yaml': [
      'params:',
      '  BADGE: <span class="badge text-bg-{2}">{1}</span>',
      '  color: site-params',
      'cascade:',
      '  params:',
      '    color: site-cascade',
      '    shade: site-shade',
      ''
    ].join('\n'),
    'content/_index.md': [
      '---',
      'title: Home',
      'cascade:',
      '  - params:',
      '      tone: home-tone',
      '  - params:',
      '      only: only-docs',
      '    target:',
      "      path: '{/docs,/docs/**}'",
      '---',
      ''
    ].join('\n'),
    'content/blog/_index.md': [
      '---',
      'title: Blog',
      'cascade:',
      '  params:',
      '    BREAKING:',
      '      <b>Breaking</b>',
      '    color: blog-cascade',
      '    tone: blog-tone',
      '---',
      '',
      'Blog color {{% param color %}}.',
      ''
    ].join('\n'),
    'content/blog/2026/release.md': [
      '---',
      'title: Release',
      'tone: own-tone',
      '---',
      '',
      '- {{% _param BREAKING %}} changes; color {{% param color %}}, tone {{% param tone %}}.',
      '- shade {{% param shade %}}, only {{% param only %}} here.',
      '',
      'Tunable via ({{%_param BADGE',
      'EXPERIMENTAL info %}}): yes.',
      '',
      'Then {{< unknownthing >}} is unwrapped.',
      ''
    ].join('\n'),
    'content/docs/guide.md': [
      '---',
      'title: Guide',
      '---',
      '',
      'Only {{% param only %}}, tone {{% param tone %}}.',
      ''
    ].join('\n')
  })
})

afterAll(() => folders.removeAll())

describe("Hugo's cascade", () => {
  it('prints values handed down with Hugo’s precedence, and a tag over two lines as one', async () => {
    const root = (await local.client.createItem({type: 'topic', title: 'cascade', parent_topic_id: null})).id
    const run = await cli(['push', path.join(repo, 'content'), '--root-topic', root, '--verbose'], local.env)
    expect(run.code).toBe(0)
    const entries = flatten(await local.client.getTree(root))
    const body = async (title: string) =>
      bodyOf(await local.client.getItem(entries.find((entry) => entry.titlePath.endsWith(title))!.id))
    const release = await body('Release')
    expect(release).toContain('- **Breaking** changes; color blog-cascade, tone own-tone.')
    expect(release).toMatch(/^- shade site-shade, only +here\.$/m)
    expect(release).toContain('Tunable via (EXPERIMENTAL): yes.')
    expect(await body('Blog')).toContain('Blog color blog-cascade.')
    expect(await body('Guide')).toContain('Only only-docs, tone home-tone.')
    // The line of a message after the joined tag is the author's.
    expect(run.err).toMatch(/release\.md:12:\d+: warning: The shortcode `unknownthing`/)
    expect(run.err).toMatch(/release\.md:7:\d+: warning: The parameter `only`/)
  })
})
