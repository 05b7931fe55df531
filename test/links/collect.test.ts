/**
 * What the checker collects from a document, as fixture pairs: each
 * `fixtures/NAME.md` beside `NAME.json`, the uses of external URLs it must
 * yield (URL, line, column, link or image). Local paths, fragments,
 * `mailto:`, `tel:`, other schemes and code are not collected. Through a
 * scan, front matter is no body and lines stay the file's.
 */
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, describe, expect, it} from 'vitest'
import {scanFolder} from '../../src/local/index.js'
import {collectLinkUses} from '../../src/links/index.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures')
const folders = temporaryFolders('links-collect')
afterAll(() => folders.removeAll())

describe('fixtures', () => {
  for (const name of readdirSync(fixtures).filter(
    (file) => file.endsWith('.md') && readdirSync(fixtures).includes(file.replace(/\.md$/, '.json'))
  )) {
    it(name, async () => {
      const expected = JSON.parse(readFileSync(path.join(fixtures, name.replace(/\.md$/, '.json')), 'utf8'))
      const dir = await folders.make()
      await writeFiles(dir, {[name]: readFileSync(path.join(fixtures, name), 'utf8')})
      expect(collectLinkUses(await scanFolder(dir))).toEqual(expected)
    })
  }
})

describe('through a scan', () => {
  it('every document once, topics by their index file, front matter left out, lines as in the file', async () => {
    const dir = await folders.make()
    await writeFiles(dir, {
      'front-matter.md': readFileSync(path.join(fixtures, 'front-matter.md'), 'utf8'),
      'guide/_index.md': 'Topic body with [a link](https://example.com/topic).\n',
      'guide/page.md': '# Page\n\nText.\n\n[same](https://example.com/topic#part)\n',
      '_partial.md': '[not published](https://example.com/partial)\n'
    })
    const uses = collectLinkUses(await scanFolder(dir))
    expect(uses.map((use) => `${use.file}:${use.line} ${use.url}`).sort()).toEqual([
      'front-matter.md:8 https://example.com/fm',
      'guide/_index.md:1 https://example.com/topic',
      'guide/page.md:5 https://example.com/topic#part'
    ])
  })

  it('after an mdBook include, each URL is at the line the author wrote', async () => {
    const dir = await folders.make()
    await writeFiles(dir, {
      'page.md': '# Page\n\n{{#include parts/intro.txt}}\n\n[after](https://example.com/after)\n',
      'parts/intro.txt': 'One.\n\nTwo.\n\nThree [inside](https://example.com/inside).\n'
    })
    const uses = collectLinkUses(await scanFolder(dir))
    expect(uses.map((use) => `${use.file}:${use.line} ${use.url}`)).toEqual([
      'page.md:3 https://example.com/inside',
      'page.md:5 https://example.com/after'
    ])
  })
})
