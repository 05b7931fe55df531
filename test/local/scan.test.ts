import {cp, mkdtemp, mkdir, rm, symlink, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {scanFolder, type LocalTopic} from '../../src/local/index.js'

const fixtures = path.resolve('fixtures/trees')
const temporary: string[] = []

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-scan-'))
  temporary.push(dir)
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), {recursive: true})
    await writeFile(path.join(dir, name), text)
  }
  return dir
}

afterAll(async () => {
  for (const dir of temporary) await rm(dir, {recursive: true, force: true})
})

describe('scanFolder on the basic sample tree', async () => {
  const scan = await scanFolder(path.join(fixtures, 'basic'))

  it('finds topics from folders and articles from files, ignoring what .kbsyncignore says', () => {
    expect(Object.keys(scan.byPath).sort()).toEqual([
      '',
      'faq.md',
      'guides',
      'guides/advanced',
      'guides/advanced/tuning.md',
      'guides/install.md',
      'welcome.md'
    ])
    expect(scan.articleCount).toBe(4)
    expect(scan.diagnostics.filter((d) => d.severity === 'error')).toEqual([])
  })

  it('takes titles from front matter, then the first heading, then the file name', () => {
    expect(scan.byPath['faq.md']!.title).toBe('Frequently asked questions')
    expect(scan.byPath['welcome.md']!.title).toBe('Welcome')
    expect(scan.byPath['guides']!.title).toBe('Guides')
    expect(scan.byPath['guides/advanced']!.title).toBe('advanced')
  })

  it('reads permissions of folders and files', () => {
    expect(scan.byPath['guides']!.permissions).toEqual({inherit: false, readers: [1001, 1002], editors: [1001]})
    expect(scan.byPath['guides/install.md']!.permissions).toEqual({readers: [1002], editors: [1001]})
  })

  it('resolves links to articles and topics, and local images to content hashes', () => {
    const welcome = scan.byPath['welcome.md']!
    expect(welcome.refs.links).toEqual(
      expect.arrayContaining([
        {target: 'guides/install.md', kind: 'article'},
        {target: 'guides', kind: 'topic'},
        {target: 'faq.md', kind: 'article'}
      ])
    )
    const tuning = scan.byPath['guides/advanced/tuning.md']!
    expect(tuning.refs.links).toEqual(expect.arrayContaining([{target: 'guides', kind: 'topic'}]))
    expect(welcome.refs.assets[0]!.sha256).toBe(tuning.refs.assets[0]!.sha256)
    expect(Object.values(scan.assets).map((a) => a.path)).toContain('img/logo.png')
  })

  it('keeps the title heading out of the body', () => {
    const welcome = scan.byPath['welcome.md']!
    expect(JSON.stringify(welcome.tree)).not.toContain('"Welcome"')
  })
})

describe('scanFolder validation', () => {
  it('reads a block after blank lines as front matter (as Astro and Hugo), its problems at their lines', async () => {
    const scan = await scanFolder(
      await tree({
        'a.mdx': '\n\n---\ntitle: From the block\n---\n\nBody.\n',
        'b.md': '\n---\ntitle: B\nsidebar_position: first\n---\n\nBody.\n',
        // No block of keys after blank lines: the `---` is a thematic break, and the text under it is the body.
        'c.md': '\n---\n\nUnder a rule.\n',
        'd.md': '\n---\nJust a line\n---\n\nBody.\n'
      })
    )
    expect(scan.byPath['a.mdx']!.title).toBe('From the block')
    expect(scan.byPath['b.md']!.title).toBe('B')
    expect(scan.diagnostics.map((d) => `${d.rule} ${d.file}:${d.line}`)).toContain('front-matter-type b.md:4')
    expect(scan.byPath['c.md']!.title).toBe('c')
    expect(scan.byPath['d.md']!.title).toBe('d')
    expect(scan.diagnostics.filter((d) => d.severity === 'error')).toEqual([])
  })

  it('reports every problem of the invalid tree with file and line', async () => {
    // A copy outside any repository: there `../../../package.json` leaves the folder and every repository.
    const copy = path.join(await tree({}), 'a', 'b', 'invalid')
    await cp(path.join(fixtures, 'invalid'), copy, {recursive: true})
    const scan = await scanFolder(copy)
    const errors = scan.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.rule} ${d.file}:${d.line}`)
    expect(errors.sort()).toEqual(
      [
        'asset-missing broken-image.md:3',
        'asset-outside outside-image.md:3',
        'duplicate-kb-id pinned.md:1',
        'front-matter-yaml bad-yaml.md:2',
        'missing-link-target dead-link.md:3',
        'permissions-invalid bad-user.md:4',
        'permissions-yaml topic/_permissions.yml:3',
        'front-matter-type wrong-type.md:2'
      ].sort()
    )
    // An article with no text is no error: it is published with a line saying so.
    expect(scan.diagnostics.find((d) => d.rule === 'empty-body')).toMatchObject({severity: 'warning', file: 'empty.md'})
  })

  it('accepts an empty folder with no problems', async () => {
    const dir = await tree({'README.txt': 'no documents'})
    const scan = await scanFolder(dir)
    expect(scan.articleCount).toBe(0)
    expect(scan.diagnostics).toEqual([])
  })

  it('never follows a symbolic link out of the folder, and survives a link loop', async () => {
    const outside = await tree({'secret.md': '# Secret\n\ntext\n'})
    const dir = await tree({'a/page.md': '# Page\n\ntext\n'})
    await symlink(outside, path.join(dir, 'escape'))
    await symlink(path.join(dir, 'a'), path.join(dir, 'a', 'loop'))
    const scan = await scanFolder(dir)
    expect(Object.keys(scan.byPath).sort()).toEqual(['', 'a', 'a/page.md'])
    expect(scan.diagnostics.map((d) => d.rule).sort()).toEqual(['symlink-loop', 'symlink-outside'])
  })

  it('syncs a folder as itself, never through a symbolic link to it, whatever the names sort like', async () => {
    for (const linkName of ['a-link', 'z-link']) {
      const dir = await tree({'shared/real.md': '# Real\n\ntext\n', 'notes/n.md': '# N\n\nn\n'})
      await symlink(path.join(dir, 'shared'), path.join(dir, 'notes', linkName))
      const scan = await scanFolder(dir)
      expect(Object.keys(scan.byPath).sort()).toEqual(['', 'notes', 'notes/n.md', 'shared', 'shared/real.md'])
      expect(scan.diagnostics.map((d) => [d.file, d.rule])).toEqual([[`notes/${linkName}`, 'symlink-folder']])
    }
  })

  it('does not publish an ignored file through a symbolic link to it', async () => {
    const dir = await tree({
      '.kbsyncignore': 'drafts/\n',
      'drafts/secret.md': '# Secret\n\nSECRET\n',
      'pub/page.md': '# Page\n\ntext\n',
      'pub/other.md': '# Other\n\ntext\n'
    })
    await symlink(path.join(dir, 'drafts', 'secret.md'), path.join(dir, 'pub', 'leak.md'))
    await symlink(path.join(dir, 'pub', 'page.md'), path.join(dir, 'pub', 'again.md'))
    const scan = await scanFolder(dir)
    expect(Object.keys(scan.byPath).sort()).toEqual(['', 'pub', 'pub/again.md', 'pub/other.md', 'pub/page.md'])
    expect(scan.diagnostics.filter((d) => d.rule?.startsWith('symlink')).map((d) => [d.file, d.rule])).toEqual([
      ['pub/leak.md', 'symlink-ignored']
    ])
  })

  it('reads a file saved with a byte order mark like one without', async () => {
    const dir = await tree({
      'fm.md': '\ufeff---\ntitle: From front matter\n---\n\nBody.\n',
      'heading.md': '\ufeff# From heading\n\nBody.\n',
      'plain.md': '# Plain\n\nBody.\n'
    })
    const scan = await scanFolder(dir)
    expect(scan.byPath['fm.md']!.title).toBe('From front matter')
    expect(scan.byPath['fm.md']!.body).not.toContain('---')
    expect(scan.byPath['heading.md']!.title).toBe('From heading')
    expect(scan.byPath['heading.md']!.body).toBe(scan.byPath['plain.md']!.body)
    expect(scan.diagnostics.filter((d) => d.severity === 'error')).toEqual([])
  })

  it('says that the body of the root _index.md is not pushed', async () => {
    const dir = await tree({'_index.md': '---\ntitle: Root\n---\n\nAbout the root.\n', 'page.md': '# Page\n\ntext\n'})
    const scan = await scanFolder(dir)
    expect(scan.byPath['']!.body).toBeUndefined()
    expect(scan.diagnostics).toMatchObject([
      {
        file: '_index.md',
        line: 1,
        rule: 'root-index',
        message: expect.stringContaining('its `title` and body are ignored')
      }
    ])
  })

  it('takes titles from names in NFC, so names that differ only in Unicode normalisation are one title', async () => {
    const nfc = 'Caf\u00e9'
    const nfd = 'Cafe\u0301'
    const dir = await tree({[`${nfc}.md`]: 'One.\n', [`${nfd}.md`]: 'Two.\n', [`${nfd} topic/page.md`]: 'Three.\n'})
    const scan = await scanFolder(dir)
    expect(scan.byPath[`${nfd}.md`]!.title).toBe(nfc)
    expect(scan.byPath[`${nfd} topic`]!.title).toBe(`${nfc} topic`)
    expect(scan.diagnostics.filter((d) => d.severity === 'error').map((d) => d.rule)).toEqual(['duplicate-title'])
    expect(scan.diagnostics.find((d) => d.rule === 'file-name')!.message).toContain('NFC and NFD')
  })

  it('excludes dot-folders and node_modules by default', async () => {
    const dir = await tree({'.git/x.md': '# X\n\nx\n', 'node_modules/y.md': '# Y\n\ny\n', 'ok.md': '# Ok\n\nok\n'})
    const scan = await scanFolder(dir)
    expect(Object.keys(scan.byPath).sort()).toEqual(['', 'ok.md'])
  })

  it('takes the file name as title when there is neither front matter title nor heading', async () => {
    const dir = await tree({'plain-page.md': 'Just text.\n'})
    const scan = await scanFolder(dir)
    expect(scan.byPath['plain-page.md']!.title).toBe('plain-page')
    expect((scan.root as LocalTopic).children).toHaveLength(1)
  })

  it('copies the sample tree without change of meaning (relative paths)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-copy-'))
    temporary.push(dir)
    await cp(path.join(fixtures, 'basic'), dir, {recursive: true})
    const scan = await scanFolder(dir)
    expect(scan.articleCount).toBe(4)
  })
})

describe('scanFolder on the sample handbook', () => {
  it('is valid: nested topics, 12 articles, images and attachment files', async () => {
    const scan = await scanFolder(path.resolve('fixtures/handbook'))
    expect(scan.diagnostics.filter((d) => d.severity === 'error')).toEqual([])
    expect(scan.articleCount).toBe(12)
    expect(Object.keys(scan.byPath)).not.toContain('drafts/reorg.md')
    expect(scan.byPath['engineering/on-call']!.title).toBe('On call')
    expect(Object.values(scan.assets).map((a) => a.path)).toEqual(
      expect.arrayContaining(['img/logo.png', 'img/escalation.png'])
    )
  })
})

describe('reference-style links', () => {
  it('resolve like inline ones', async () => {
    const dir = await tree({
      'a.md': '# A\n\nSee [the guide][g] and ![logo][l].\n\n[g]: sub/b.md\n[l]: img/x.png\n',
      'sub/b.md': '# B\n\nb\n',
      'img/x.png': 'png'
    })
    const scan = await scanFolder(dir)
    expect(scan.diagnostics).toEqual([])
    expect(scan.byPath['a.md']!.refs.links).toEqual([{target: 'sub/b.md', kind: 'article'}])
    expect(scan.byPath['a.md']!.refs.assets).toHaveLength(1)
    expect(JSON.stringify(scan.byPath['a.md']!.tree)).not.toContain('"definition"')
  })
})
