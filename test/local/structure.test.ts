/**
 * The structure of a scanned tree as docs sites write it: titles from a
 * heading of any level, `.mdx` documents, index pages as topic bodies (and
 * links to them as topic links), partials, duplicate titles told apart, and
 * matching by title that never guesses between look-alike remote items.
 */
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {scanFolder, type LocalNode, type LocalTopic} from '../../src/local/index.js'
import {push} from '../../src/sync/index.js'
import {FakeClient} from '../sync/fake-client.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'

const folders = temporaryFolders('structure')
afterAll(() => folders.removeAll())

/** A new folder holding `files`. */
async function tree(files: Record<string, string>): Promise<string> {
  const dir = await folders.make()
  await writeFiles(dir, files)
  return dir
}

/** The tree as `key: title` lines, children indented, in order. */
function shape(topic: LocalTopic, depth = 0): string[] {
  return topic.children.flatMap((child: LocalNode) => [
    `${'  '.repeat(depth)}${child.path}: ${child.title}`,
    ...(child.kind === 'topic' ? shape(child, depth + 1) : [])
  ])
}

describe('titles', () => {
  it('come from the heading of any level the document opens with, which then leaves the body; setext and `{#id}` too', async () => {
    const dir = await tree({
      'install.md': '## Installation\n\nInstall it.\n\n## Next\n\nMore.\n',
      'setext.md': 'Getting around\n==============\n\nText.\n',
      'custom-id.md': '### Tuning {#tuning}\n\nFast.\n',
      'commented.md': '<!-- generated -->\n\n## After a comment\n\nText.\n',
      'late.md': 'Text first.\n\n## Not the title\n'
    })
    const scan = await scanFolder(dir)
    expect(scan.byPath['install.md']).toMatchObject({title: 'Installation', titleFrom: 'heading', titleLine: 1})
    expect(scan.byPath['install.md']!.body).not.toContain('## Installation')
    expect(scan.byPath['install.md']!.body).toContain('## Next')
    expect(scan.byPath['setext.md']).toMatchObject({title: 'Getting around', titleFrom: 'heading'})
    expect(scan.byPath['setext.md']!.body).not.toContain('=====')
    expect(scan.byPath['custom-id.md']!.title).toBe('Tuning')
    expect(scan.byPath['commented.md']!.title).toBe('After a comment')
    expect(scan.byPath['late.md']).toMatchObject({title: 'late', titleFrom: 'name'})
  })

  it('beside a front matter title, take out only a `# Title` line equal to it (pull keeps a title-like heading in other forms)', async () => {
    const dir = await tree({
      'atx.md': '---\ntitle: Intro\n---\n\n# Intro\n\nText.\n',
      'setext.md': '---\ntitle: Intro\n---\n\nIntro\n=====\n\nText.\n',
      'deeper.md': '---\ntitle: Intro\n---\n\n## Intro\n\nText.\n'
    })
    const scan = await scanFolder(dir)
    expect(scan.byPath['atx.md']!.body).not.toContain('Intro')
    expect(scan.byPath['setext.md']!.body).toContain('Intro\n=====')
    expect(scan.byPath['deeper.md']!.body).toContain('## Intro')
  })

  it('reads .mdx files as documents, their import lines no content before the heading', async () => {
    const dir = await tree({
      'guide.mdx':
        "import Tabs from '@theme/Tabs';\nimport {\n  TabItem,\n} from '@theme/TabItem';\n\n# The guide\n\nText.\n"
    })
    const scan = await scanFolder(dir)
    expect(scan.byPath['guide.mdx']).toMatchObject({kind: 'article', title: 'The guide'})
    expect(scan.articleCount).toBe(1)
  })
})

describe('index pages', () => {
  it("make a folder's body: index.md, README.md, x/x.md, x.md beside x/; the root's index page stays an article; links to them are topic links", async () => {
    const dir = await tree({
      'index.md': '# Home\n\nSee [configuration](configuration.md) and [the guide](guide/README.md).\n',
      'configuration.md': '---\ntitle: Configuration\n---\n\nConfigure it.\n',
      'configuration/options.md': '# Options\n\nAll options.\n',
      'guide/README.md': '# The guide\n\nRead on.\n',
      'guide/start.md': '# Start\n\nStart here.\n',
      'community/community.md': '# Community\n\nJoin us.\n',
      'community/bug.md': '# Report a bug\n\nOpen an issue.\n'
    })
    const scan = await scanFolder(dir)
    expect(shape(scan.root)).toEqual([
      'index.md: Home',
      'community: Community',
      '  community/bug.md: Report a bug',
      'configuration: Configuration',
      '  configuration/options.md: Options',
      'guide: The guide',
      '  guide/start.md: Start'
    ])
    expect(scan.byPath['configuration']!.file).toBe('configuration.md')
    expect(scan.byPath['configuration']!.body).toContain('Configure it.')
    expect(scan.byPath['index.md']!.refs.links).toEqual([
      {target: 'configuration', kind: 'topic'},
      {target: 'guide', kind: 'topic'}
    ])
    expect(scan.diagnostics.filter((d) => d.severity !== 'info')).toEqual([])
  })

  it('match a file beside its folder in any case (`Guides.md` next to `guides/`)', async () => {
    const dir = await tree({'Guides.md': '# Guides\n\nAll guides.\n', 'guides/start.md': '# Start\n\nGo.\n'})
    const scan = await scanFolder(dir)
    expect(shape(scan.root)).toEqual(['guides: Guides', '  guides/start.md: Start'])
  })

  it('warns when two candidates compete; the later one stays an article', async () => {
    const dir = await tree({'x/index.md': '# X\n\nx\n', 'x/README.md': '# Read me\n\nr\n', 'x/a.md': '# A\n\na\n'})
    const scan = await scanFolder(dir)
    expect(scan.byPath['x']!.file).toBe('x/index.md')
    expect(scan.byPath['x/README.md']!.kind).toBe('article')
    expect(scan.diagnostics.map((d) => `${d.rule} ${d.file}`)).toEqual(['index-competing x/README.md'])
  })

  it('does not publish partials (`_x.mdx`, `_sidebar.md`), and says so once each as an info', async () => {
    const dir = await tree({'_sidebar.md': '- [A](a.md)\n', '_note.mdx': 'A note.\n', 'a.md': '# A\n\na\n'})
    const scan = await scanFolder(dir)
    expect(Object.keys(scan.byPath).sort()).toEqual(['', 'a.md'])
    expect(scan.diagnostics.map((d) => `${d.severity} ${d.rule} ${d.file}`).sort()).toEqual([
      'info partial-skipped _note.mdx',
      'info partial-skipped _sidebar.md'
    ])
  })
})

describe('navigation outlines', () => {
  it("put unlisted documents of a chapter's folder into that chapter, and count them in one warning", async () => {
    const dir = await tree({
      'SUMMARY.md':
        '# Summary\n\n- [Guide](guide/README.md)\n    - [Install](guide/install.md)\n- [Missing](nowhere.md)\n',
      'guide/README.md': '# The guide\n\nRead on.\n',
      'guide/install.md': '## Install it\n\nSteps.\n',
      'guide/extra.md': '## Extra\n\nMore.\n',
      'other/page.md': '# Other page\n\nText.\n'
    })
    const scan = await scanFolder(dir)
    expect(shape(scan.root)).toEqual([
      'guide/README.md: Guide',
      '  guide/install.md: Install',
      '  guide/extra.md: Extra',
      'other: other',
      '  other/page.md: Other page'
    ])
    expect(scan.diagnostics.map((d) => `${d.rule} ${d.file}:${d.line ?? ''} ${d.message}`)).toEqual([
      'navigation-missing SUMMARY.md:5 SUMMARY.md lists `nowhere.md`, which is not a document of the folder; the entry is skipped',
      'navigation-unlisted SUMMARY.md: 2 documents are not in SUMMARY.md (`guide/extra.md`, `other/page.md`): published where their folders put them, after the listed ones'
    ])
  })

  it("keep an unlisted folder's index page (even one beside the folder) as that folder's body; a folder entry names its index page", async () => {
    const dir = await tree({
      'SUMMARY.md': '- [Intro](intro.md)\n- [The guide](guide/)\n',
      'intro.md': '# Intro\n\nHello.\n',
      'guide/index.md': '# Guide\n\nRead on.\n',
      'deployment.md': '---\ntitle: Deployment\n---\n\nDeploy.\n',
      'deployment/manual.md': '# Manual\n\nBy hand.\n'
    })
    const scan = await scanFolder(dir)
    expect(shape(scan.root)).toEqual([
      'intro.md: Intro',
      'guide/index.md: The guide',
      'deployment: Deployment',
      '  deployment/manual.md: Manual'
    ])
    expect(scan.byPath['deployment']!.file).toBe('deployment.md')
    expect(scan.diagnostics.filter((d) => d.severity === 'error')).toEqual([])
  })
  it('read a `_category_` file only in folders holding documents: one in an assets-only folder is not read (and does not break the scan)', async () => {
    const dir = await tree({
      'd/a.md': '# A\n\na\n',
      'd/img/_category_.json': '{"label": "Images"}\n',
      'd/img/logo.txt': 'logo\n'
    })
    const scan = await scanFolder(dir)
    expect(shape(scan.root)).toEqual(['d: d', '  d/a.md: A'])
    expect(scan.diagnostics.filter((d) => d.severity === 'error')).toEqual([])
  })
})

describe('mkdocs.yml above the folder', () => {
  it('applies to its docs_dir and whatever holds it or lies in it, and its problems too; a sibling folder is no concern of it', async () => {
    const repo = await tree({
      '.git/HEAD': 'ref: refs/heads/main\n',
      'mkdocs.yml': 'site_name: x\ndocs_dir: documentation\nnav:\n  - Second: b.md\n  - 42\n  - First: a.md\n',
      'documentation/a.md': '# A\n\na\n',
      'documentation/b.md': '# B\n\nb\n',
      'other/c.md': '# C\n\nc\n'
    })
    const docs = await scanFolder(path.join(repo, 'documentation'))
    expect(shape(docs.root)).toEqual(['b.md: Second', 'a.md: First'])
    expect(docs.diagnostics.map((d) => `${d.severity} ${d.rule} ${d.file}:${d.line}`)).toEqual([
      'error navigation-mkdocs ../mkdocs.yml:5'
    ])
    const other = await scanFolder(path.join(repo, 'other'))
    expect(shape(other.root)).toEqual(['c.md: C'])
    expect(other.diagnostics).toEqual([])
  })
})

describe('duplicate titles', () => {
  it('are told apart by file name with one warning, and stay an error only when names cannot tell them apart', async () => {
    const dir = await tree({
      'code_of_conduct.md': '---\ntitle: Code of Conduct\n---\n\nBe kind.\n',
      'conduct.md': '---\ntitle: Code of Conduct\n---\n\nBe kind, too.\n'
    })
    const scan = await scanFolder(dir)
    expect(scan.byPath['code_of_conduct.md']!.title).toBe('Code of Conduct')
    expect(scan.byPath['conduct.md']!.title).toBe('Code of Conduct (conduct)')
    expect(scan.diagnostics.map((d) => `${d.severity} ${d.rule} ${d.file}`)).toEqual([
      'warning title-disambiguated conduct.md'
    ])

    const taken = await tree({'a.md': '# Same\n\na\n', 'b.md': '# Same\n\nb\n', 'c.md': '# Same (b)\n\nc\n'})
    const refused = await scanFolder(taken)
    expect(refused.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.rule} ${d.file}`)).toEqual([
      'duplicate-title b.md'
    ])
  })

  it('name a few of thousands of pages of one title, and count the rest, in their one warning', async () => {
    const files: Record<string, string> = {}
    for (let i = 0; i < 2000; i++) files[`page-${i}/index.md`] = '---\ntitle: Overview\n---\n\nText.\n'
    const scan = await scanFolder(await tree(files))
    const warnings = scan.diagnostics.filter((d) => d.rule === 'title-disambiguated')
    expect(warnings).toHaveLength(1)
    // It listed all 1,999 renamed pages before: one line of 105,834 characters.
    expect(warnings[0]!.message.length).toBeLessThan(500)
    expect(warnings[0]!.message).toMatch(/ and 1,994 more /)
    expect(scan.byPath['page-1999']?.title).toBe('Overview (page-1999/index)')
  })

  it('never match a look-alike remote item by title: with two remote items of one title, a new item is created and neither is overwritten', async () => {
    const client = new FakeClient()
    const one = await client.createItem({type: 'article', title: 'Same', parent_topic_id: null, body: 'one'})
    const two = await client.createItem({type: 'article', title: 'Same', parent_topic_id: null, body: 'two'})
    const dir = await tree({'same.md': '# Same\n\nMine.\n'})
    const result = await push({dir, client})
    expect(result.status).toBe('ok')
    expect(result.plan.diagnostics.map((d) => d.rule)).toContain('ambiguous-title')
    expect(client.items.get(one.id)!.body).toBe('one')
    expect(client.items.get(two.id)!.body).toBe('two')
    expect(client.items.size).toBe(3)
  })
})
