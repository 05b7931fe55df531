import {mkdir, mkdtemp, readFile, rm, symlink, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {bodyOf, readDocumentHead} from '../../src/local/body.js'
import {chooseTitle} from '../../src/local/titles.js'
import {documentText, permissionsText, protectTitleHeading} from '../../src/sync/pull/index.js'
import {readText, writeAtomic} from '../../src/sync/shared/document-files.js'

/** A document as the scan reads it for push: front matter, title (the opening heading leaves the body when it is the title), body. */
function readBack(text: string) {
  const head = readDocumentHead(text, 'x.md', [])
  const chosen = chooseTitle(head, undefined, 'x')
  return {
    frontMatter: head.frontMatter,
    body: bodyOf(head, chosen.dropHeading).body,
    headingTitle: chosen.dropHeading ? head.heading?.title : undefined
  }
}

describe('documentText', () => {
  it('writes front matter that push reads back: title, kb_id, article permissions, body', () => {
    const text = documentText(
      {title: '123: "odd" title #1', id: '00042', permissions: {readers: [1, 2], editors: [1]}},
      'Body.\n'
    )
    expect(text).toBe(
      '---\ntitle: \'123: "odd" title #1\'\nkb_id: "00042"\npermissions:\n  readers: [1, 2]\n  editors: [1]\n---\n\nBody.\n'
    )
    const parts = readBack(text)
    expect(parts.frontMatter).toMatchObject({
      title: '123: "odd" title #1',
      kbId: '00042',
      permissions: {readers: [1, 2], editors: [1]}
    })
    expect(parts.body.trim()).toBe('Body.')
  })

  it('writes a topic without a body as front matter only', () => {
    expect(documentText({title: 'Guides', id: 'T1'}, '')).toBe('---\ntitle: Guides\nkb_id: T1\n---\n')
    expect(permissionsText({inherit: false, readers: [3], editors: []})).toBe(
      'inherit: false\nreaders: [3]\neditors: []\n'
    )
  })
})

describe('protectTitleHeading', () => {
  it('keeps a leading heading equal to the title in the body (setext form)', () => {
    const text = protectTitleHeading('# Intro\n\nText.\n', 'Intro')
    expect(text).toBe('Intro\n=====\n\nText.\n')
    const parts = readBack(documentText({title: 'Intro', id: 'A'}, text))
    expect(parts.headingTitle).toBeUndefined()
    expect(parts.body).toContain('Intro\n=====')
    expect(protectTitleHeading('# Other\n', 'Intro')).toBe('# Other\n')
  })
})

describe('writeAtomic', () => {
  it('writes through a rename, creating folders, and reports whether the content changed', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-pull-files-'))
    try {
      const file = path.join(dir, 'a', 'b', 'c.md')
      expect(await writeAtomic(dir, 'a/b/c.md', 'one')).toBe(true)
      expect(await writeAtomic(dir, 'a/b/c.md', 'one')).toBe(false)
      expect(await writeAtomic(dir, 'a/b/c.md', 'two')).toBe(true)
      expect(await readFile(file, 'utf8')).toBe('two')
    } finally {
      await rm(dir, {recursive: true, force: true})
    }
  })
})

describe('readText', () => {
  it('gives a file its text, and nothing for a missing file, a folder or a link to nothing', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'kbsync-read-text-'))
    try {
      await writeFile(path.join(dir, 'a.md'), 'one\n')
      await mkdir(path.join(dir, 'folder.md'))
      await symlink(path.join(dir, 'gone.md'), path.join(dir, 'dangling.md'))
      expect(await readText(path.join(dir, 'a.md'))).toBe('one\n')
      expect(await readText(path.join(dir, 'missing.md'))).toBeUndefined()
      expect(await readText(path.join(dir, 'folder.md'))).toBeUndefined()
      expect(await readText(path.join(dir, 'dangling.md'))).toBeUndefined()
    } finally {
      await rm(dir, {recursive: true, force: true})
    }
  })
})
