/**
 * Links as real trees write them: the alias index (doc ids, slugs,
 * permalinks) and the page forms (`x.html`, extensionless, folders), then
 * resolution against a real folder inside a repository (root-relative
 * paths, files elsewhere in the repository, broken links as errors or as
 * text).
 */
import {mkdir, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {
  addressKey,
  documentAt,
  emptyLinkTargets,
  numberPrefix,
  recordDocument,
  type LinkTargets
} from '../../src/local/link-targets.js'
import {withoutLiquid} from '../../src/local/link-resolve.js'
import type {LinkOptions, LocalRef} from '../../src/local/references.js'
import {scanFolder} from '../../src/local/index.js'
import {temporaryFolders} from '../temp-folders.js'

const folders = temporaryFolders('links')
afterAll(() => folders.removeAll())

/** An index over `files` (articles) and `topics`, each article recorded with the front matter given. */
function targetsOf(files: Record<string, Record<string, string>>, topics: string[] = ['']): LinkTargets {
  const targets = emptyLinkTargets(
    new Set(Object.keys(files).filter((file) => !file.endsWith('_index.md'))),
    new Set(topics)
  )
  for (const [file, frontMatter] of Object.entries(files)) {
    const topic = file.endsWith('_index.md') ? path.posix.dirname(file) : undefined
    recordDocument(
      targets,
      file,
      topic !== undefined ? {target: topic === '.' ? '' : topic, kind: 'topic'} : {target: file, kind: 'article'},
      frontMatter
    )
  }
  return targets
}

describe('documentAt: the page forms of a document', () => {
  const targets = targetsOf(
    {
      'intro.md': {},
      'guide/setup.mdx': {},
      'guide/README.md': {},
      'ref/index.md': {},
      'api/_index.md': {},
      'api/calls.md': {}
    },
    ['', 'guide', 'ref', 'api', 'empty']
  )
  it.each([
    ['intro.md', 'article intro.md'],
    ['intro.html', 'article intro.md'],
    ['intro', 'article intro.md'],
    ['guide/setup.html', 'article guide/setup.mdx'],
    ['guide/setup.md', 'article guide/setup.mdx'],
    ['guide/setup', 'article guide/setup.mdx'],
    ['guide', 'article guide/README.md'],
    ['guide/index.html', 'article guide/README.md'],
    ['ref', 'article ref/index.md'],
    ['api', 'topic api'],
    ['api/_index.md', 'topic api'],
    ['empty', 'topic empty'],
    ['missing', 'none'],
    ['missing.md', 'none'],
    ['intro.png', 'none']
  ])('%s -> %s', (candidate, expected) => {
    const found = documentAt(targets, candidate)
    expect(found ? `${found.kind} ${found.target}` : 'none').toBe(expected)
  })
})

describe('the number prefix of doc ids, as Docusaurus drops it', () => {
  it('drops digits and a separator, never the whole name, and not digits before a space alone', () => {
    const strip = (name: string) => name.replace(numberPrefix, '')
    expect(['01-intro', '2_setup', '03 . usage', '4.faq'].map(strip)).toEqual(['intro', 'setup', 'usage', 'faq'])
    expect(['01 intro', '01-', '2024', '01--'].map(strip)).toEqual(['01 intro', '01-', '2024', '01--'])
  })
})

describe('site addresses from front matter and file names', () => {
  const targets = targetsOf({
    'usage/ReducingBoilerplate.md': {id: 'reducing-boilerplate'},
    'tutorials/01-basics/02-first-steps.md': {},
    'faq/General.md': {slug: '/questions'},
    'faq/Other.md': {slug: 'more'},
    'variables.md': {permalink: '/docs/variables/'},
    'old.md': {permalink: '/docs/old.html'}
  })
  it.each([
    ['usage/reducing-boilerplate', 'usage/ReducingBoilerplate.md'],
    ['tutorials/basics/first-steps', 'tutorials/01-basics/02-first-steps.md'],
    ['questions', 'faq/General.md'],
    ['faq/more', 'faq/Other.md'],
    ['docs/variables', 'variables.md'],
    ['docs/old', 'old.md']
  ])('%s names %s', (address, file) => {
    expect(documentAt(targets, address)?.target).toBe(file)
  })

  it('reads addresses without the slashes, .html, index or case that tell nothing apart', () => {
    expect(
      ['/docs/variables/', 'docs/variables', '/docs/variables.html', '/Docs/Variables/index.html'].map(addressKey)
    ).toEqual(Array(4).fill('docs/variables'))
  })

  it('reads a site path written through a Liquid filter', () => {
    expect(withoutLiquid(`{{ '/docs/posts/#drafts' | relative_url }}`)).toBe('/docs/posts/#drafts')
    expect(withoutLiquid('{{ site.baseurl }}/docs/x/')).toBe('/docs/x/')
    expect(withoutLiquid('../x.md')).toBe('../x.md')
  })
})

/** A repository at `repo` holding the synced folder `repo/docs`, built from `files` (repository-relative). */
async function repository(files: Record<string, string>): Promise<{repo: string; docs: string}> {
  const repo = await folders.make()
  await mkdir(path.join(repo, '.git'))
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(repo, name)), {recursive: true})
    await writeFile(path.join(repo, name), text)
  }
  return {repo, docs: path.join(repo, 'docs')}
}

/**
 * Scans `docs` after writing `page` (its `frontMatter`, then one reference a line, `urls`, from line 3 without front matter),
 * and returns what each resolved to, the files the page uses and the scan's link messages.
 */
async function resolveIn(
  docs: string,
  page: string,
  urls: Array<[LocalRef['kind'], string]>,
  options: LinkOptions = {},
  frontMatter = ''
) {
  const lines = urls.map(([kind, url]) => (kind === 'image' ? `![alt text](${url})` : `[link text](${url})`))
  await mkdir(path.dirname(path.join(docs, page)), {recursive: true})
  await writeFile(path.join(docs, page), `${frontMatter}# Page\n\n${lines.join('\n\n')}\n`)
  const scan = await scanFolder(docs, {links: options})
  const node = scan.byPath[page]!
  const diagnostics = scan.diagnostics
    .filter((d) => /^(?:link-|missing-link|asset-)/.test(d.rule ?? ''))
    .map((d) => `${(d.line! - 1) / 2} ${d.severity} ${d.rule}`)
  return {resolutions: node.resolutions, used: node.refs.assets.map((asset) => asset.path), diagnostics}
}

describe('resolveLocalRefs in a repository', () => {
  it('finds root-relative images at the repository root, the site root and the folder served under a prefix', async () => {
    const {repo, docs} = await repository({
      'docs/page.md': '# Page\n\ntext\n',
      'docs/assets/a.png': 'a',
      'static/img/b.png': 'b',
      'website/c.png': 'c'
    })
    const result = await resolveIn(
      docs,
      'page.md',
      [
        ['image', '/docs/assets/a.png'],
        ['image', '/static/img/b.png'],
        ['image', '/img/b.png'],
        ['image', '/site/assets/a.png'],
        ['image', '../website/c.png']
      ],
      {siteRoot: path.join(repo, 'static')}
    )
    expect(result.diagnostics).toEqual([])
    expect(result.resolutions!.map((r) => r && 'asset' in r && r.asset.path)).toEqual([
      'assets/a.png',
      '../static/img/b.png',
      '../static/img/b.png',
      'assets/a.png',
      '../website/c.png'
    ])
    expect(result.used).toEqual(['assets/a.png', '../static/img/b.png', '../website/c.png'])
  })

  it('finds root-relative images in the conventional static folders without a configured site root', async () => {
    const {docs} = await repository({
      'docs/page.md': '# Page\n\ntext\n',
      'docs/public/logo.png': 'l',
      'static/img/shot.png': 's'
    })
    const result = await resolveIn(docs, 'page.md', [
      ['image', '/logo.png'],
      ['image', '/img/shot.png']
    ])
    expect(result.diagnostics).toEqual([])
    expect(result.used).toEqual(['public/logo.png', '../static/img/shot.png'])
  })

  it('reads `@site/` as the Docusaurus site folder and serves root-relative images from its `static/`', async () => {
    const {repo} = await repository({
      'site/docusaurus.config.js': "export default {title: 'x'}\n",
      'site/docs/guide/page.md': '# Page\n\ntext\n',
      'site/static/img/a.png': 'a',
      'site/src/shots/b.png': 'b'
    })
    const result = await resolveIn(path.join(repo, 'site/docs'), 'guide/page.md', [
      ['image', '@site/static/img/a.png'],
      ['image', '@site/src/shots/b.png'],
      ['image', '/img/a.png'],
      ['link', '@site/docs/guide/page.md']
    ])
    expect(result.diagnostics).toEqual([])
    expect(result.used).toEqual(['../static/img/a.png', '../src/shots/b.png'])
    expect(result.resolutions![3]).toEqual({link: expect.objectContaining({target: 'guide/page.md'})})
  })

  it("serves root-relative images from a Hugo site's `static/`, beside its content folder", async () => {
    const {repo} = await repository({
      'hugo.yaml': 'languages:\n  en:\n    contentDir: content/en\n  fr:\n    contentDir: content/fr\n',
      'content/en/page.md': '# Page\n\ntext\n',
      'content/fr/page.md': '# Page\n\ntexte\n',
      'static/images/logo.png': 'l'
    })
    const result = await resolveIn(path.join(repo, 'content/en'), 'page.md', [['image', '/images/logo.png']])
    expect(result.diagnostics).toEqual([])
    expect(result.used).toEqual(['../../static/images/logo.png'])
  })

  it('links a file of the repository (outside the folder, or no document) to repoUrl, else keeps its text with a warning', async () => {
    const {docs} = await repository({
      'docs/page.md': '# Page\n\ntext\n',
      'CONTRIBUTING.md': '# C\n',
      'src/main.ts': 'x',
      'docs/files/form.pdf': 'f'
    })
    const urls: Array<[LocalRef['kind'], string]> = [
      ['link', '../CONTRIBUTING.md'],
      ['link', '/src/main.ts#L3'],
      ['link', '../src'],
      ['link', 'files/form.pdf']
    ]
    const linked = await resolveIn(docs, 'page.md', urls, {repoUrl: 'https://github.com/org/repo/blob/main/'})
    expect(linked.resolutions).toEqual([
      {external: {url: 'https://github.com/org/repo/blob/main/CONTRIBUTING.md'}},
      {external: {url: 'https://github.com/org/repo/blob/main/src/main.ts#L3'}},
      {external: {url: 'https://github.com/org/repo/blob/main/src'}},
      {external: {url: 'https://github.com/org/repo/blob/main/docs/files/form.pdf'}}
    ])
    expect(linked.diagnostics).toEqual([])
    const plain = await resolveIn(docs, 'page.md', urls)
    expect(plain.resolutions).toEqual([{plain: true}, {plain: true}, {plain: true}, {plain: true}])
    expect(plain.diagnostics).toEqual([
      '1 warning link-outside',
      '2 warning link-outside',
      '3 warning link-outside',
      '4 warning link-to-file'
    ])
  })

  it('takes a site-style link leaving the folder for the page the site serves, a link with an extension for the repository file', async () => {
    const {docs} = await repository({
      'docs/guide.md': '# Guide\n\ntext\n',
      'docs/shared.md': '# Shared\n\ntext\n',
      'shared/notes.txt': 'n'
    })
    const result = await resolveIn(
      docs,
      'guide.md',
      [
        ['link', '../shared/'],
        ['link', '../shared/notes.txt']
      ],
      {repoUrl: 'https://example.org/repo/'}
    )
    expect(result.resolutions).toEqual([
      {link: {target: 'shared.md', kind: 'article'}},
      {external: {url: 'https://example.org/repo/shared/notes.txt'}}
    ])
  })

  it('reads a relative link of a page with a permalink against that address, and Liquid site paths', async () => {
    const {docs} = await repository({
      'docs/setup/deb.md': '---\npermalink: /docs/installation/ubuntu/\n---\n\n# Ubuntu\n\ntext\n'
    })
    const result = await resolveIn(docs, 'page.md', [
      ['link', '{{site.baseurl}}/docs/installation/ubuntu/#requirements']
    ])
    expect(result.resolutions).toEqual([{link: {target: 'setup/deb.md', kind: 'article'}}])
    const relative = await resolveIn(
      docs,
      'setup/linux-other.md',
      [['link', '../ubuntu/']],
      {},
      '---\npermalink: /docs/installation/other-linux/\n---\n'
    )
    expect(relative.diagnostics).toEqual([])
    expect(relative.resolutions).toEqual([{link: {target: 'setup/deb.md', kind: 'article'}}])
  })

  it('keeps a broken link or image an error, or with brokenLinks "warn" a warning that publishes its text', async () => {
    const {docs} = await repository({'docs/page.md': '# Page\n\ntext\n'})
    const urls: Array<[LocalRef['kind'], string]> = [
      ['link', 'gone.md'],
      ['link', '../nowhere.md'],
      ['image', 'lost.png'],
      ['link', '/docs/gone/']
    ]
    const strict = await resolveIn(docs, 'page.md', urls)
    expect(strict.diagnostics).toEqual([
      '1 error missing-link-target',
      '2 error link-outside',
      '3 error asset-missing',
      '4 error missing-link-target'
    ])
    expect(strict.resolutions).toEqual([null, null, null, null])
    const lenient = await resolveIn(docs, 'page.md', urls, {brokenLinks: 'warn'})
    expect(lenient.diagnostics).toEqual([
      '1 warning missing-link-target',
      '2 warning link-outside',
      '3 warning asset-missing',
      '4 warning missing-link-target'
    ])
    expect(lenient.resolutions).toEqual([{plain: true}, {plain: true}, {plain: true}, {plain: true}])
  })

  it('never takes an image through a symbolic link out of the repository, nor outside one', async () => {
    const outside = await folders.make()
    await writeFile(path.join(outside, 'secret.png'), 's')
    const {repo, docs} = await repository({'docs/page.md': '# Page\n\ntext\n'})
    await symlink(path.join(outside, 'secret.png'), path.join(repo, 'leak.png'))
    await symlink(path.join(outside, 'secret.png'), path.join(docs, 'inner.png'))
    const result = await resolveIn(
      docs,
      'page.md',
      [
        ['image', '../leak.png'],
        ['image', 'inner.png'],
        ['image', path.relative(docs, path.join(outside, 'secret.png'))]
      ],
      {brokenLinks: 'warn'}
    )
    expect(result.diagnostics).toEqual(['1 error asset-outside', '2 error asset-outside', '3 error asset-outside'])
    expect(result.used).toEqual([])
  })

  it('reads extensionless, .html, folder-style and Docusaurus folder-root links', async () => {
    const {docs} = await repository({
      'docs/guide/setup.md': '# Setup\n\ntext\n',
      'docs/guide/next.md': '# Next\n\ntext\n',
      'docs/api/store.md': '# Store\n\ntext\n'
    })
    const result = await resolveIn(docs, 'guide/setup.md', [
      ['link', 'next'],
      ['link', 'next.html#part'],
      ['link', '../next/'],
      ['link', 'api/store.md'],
      ['link', 'next?tab=1'],
      ['link', '/docs/guide/next/']
    ])
    expect(result.diagnostics).toEqual([])
    expect(result.resolutions!.map((r) => (r && 'link' in r ? r.link.target : r))).toEqual([
      'guide/next.md',
      'guide/next.md',
      'guide/next.md',
      'api/store.md',
      'guide/next.md',
      'guide/next.md'
    ])
  })
})
