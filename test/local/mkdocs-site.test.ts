/**
 * MkDocs sites scanned whole (in process): pymdownx.snippets resolved from
 * the base path `mkdocs.yml` gives (a file outside `docs/`, inside the
 * repository, included as real trees do), with line ranges, sections,
 * blocks and escapes; and images written for `use_directory_urls`, where
 * `user-guide/page.md` is served at `user-guide/page/`.
 */
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {scanFolder} from '../../src/local/index.js'
import {temporaryFolders} from '../temp-folders.js'

const folders = temporaryFolders('mkdocs-site')
afterAll(() => folders.removeAll())

/** A repository with `files` (path -> text); answers the scan of its `docs` folder... or of `scanned`. */
async function site(files: Record<string, string>, scanned = '.') {
  const dir = await folders.make()
  for (const [name, text] of Object.entries({'.git/HEAD': 'ref: refs/heads/main\n', ...files})) {
    await mkdir(path.dirname(path.join(dir, name)), {recursive: true})
    await writeFile(path.join(dir, name), text)
  }
  return scanFolder(path.join(dir, scanned))
}

/** The body of the document read from `file`. */
function bodyOf(scan: Awaited<ReturnType<typeof scanFolder>>, file: string): string {
  const node = Object.values(scan.byPath).find((candidate) => (candidate.file ?? candidate.path) === file)
  return node!.body!
}

const snippetsYml =
  'site_name: S\nmarkdown_extensions:\n  - attr_list\n  - pymdownx.snippets:\n      base_path: [".", "includes"]\n'

describe('pymdownx.snippets', () => {
  it('includes files from the base paths, outside docs/ too, with ranges, sections, blocks and escapes', async () => {
    const scan = await site({
      'mkdocs.yml': snippetsYml,
      'CONTRIBUTING.md': '# Contributing\n\nSend patches.\n',
      'includes/abbr.md': 'one\ntwo\nthree\nfour\n',
      'includes/code.py': 'x = 0\n# --8<-- [start:body]\ndef f():\n    return 1\n# --8<-- [end:body]\n',
      'docs/index.md': [
        '--8<-- "CONTRIBUTING.md"',
        '',
        '--8<-- "abbr.md:2:3"',
        '',
        '```python',
        '--8<-- "code.py:body"',
        '```',
        '',
        '- item',
        '',
        '    --8<-- "abbr.md:4"',
        '',
        '--8<--',
        'abbr.md:1:1',
        '; commented.md',
        '--8<--',
        '',
        ';--8<-- "shown.md"',
        ''
      ].join('\n')
    })
    const body = bodyOf(scan, 'docs/index.md')
    expect(body).toContain('# Contributing\n\nSend patches.')
    expect(body).toContain('two\nthree')
    expect(body).toContain('```python\ndef f():\n    return 1\n```')
    expect(body).toContain('- item\n\n    four')
    expect(body).toContain('\none\n')
    expect(body).toContain('--8<-- "shown.md"')
    expect(body).not.toContain(';--8<--')
    expect(scan.diagnostics.filter((d) => d.file === 'docs/index.md')).toEqual([])
  })

  it('warns about a missing snippet, naming it, and leaves it out', async () => {
    const scan = await site({'mkdocs.yml': snippetsYml, 'docs/index.md': 'A\n\n--8<-- "nowhere.md"\n'})
    const missing = scan.diagnostics.filter((d) => d.rule === 'include-missing')
    expect(missing).toMatchObject([{file: 'docs/index.md', line: 3, severity: 'warning'}])
    expect(missing[0]!.message).toContain('nowhere.md')
    expect(bodyOf(scan, 'docs/index.md')).not.toContain('8<')
  })
})

describe('images of a site with directory URLs', () => {
  const page = '<img src="../../img/a.png" alt="A">\n\n![B](../../img/a.png)\n\n![C](../img/a.png)\n'

  it('are read from the folder MkDocs serves the page as', async () => {
    const scan = await site({'mkdocs.yml': 'site_name: S\n', 'docs/img/a.png': 'png', 'docs/guide/page.md': page})
    expect(scan.diagnostics.filter((d) => d.rule === 'asset-missing' || d.severity === 'error')).toEqual([])
    expect(Object.values(scan.assets).map((asset) => asset.path)).toEqual(['docs/img/a.png'])
  })

  it('are not, when use_directory_urls is false, or for an index page', async () => {
    const off = await site({
      'mkdocs.yml': 'site_name: S\nuse_directory_urls: false\n',
      'docs/img/a.png': 'png',
      'docs/guide/page.md': page
    })
    expect(off.diagnostics.filter((d) => d.file === 'docs/guide/page.md').length).toBeGreaterThan(0)
    const index = await site({'mkdocs.yml': 'site_name: S\n', 'docs/img/a.png': 'png', 'docs/guide/index.md': page})
    expect(index.diagnostics.filter((d) => d.file === 'docs/guide/index.md').length).toBeGreaterThan(0)
  })
})
