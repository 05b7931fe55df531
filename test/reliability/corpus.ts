/**
 * The bad-input corpus: the committed cases of `fixtures/bad/` plus the ones
 * too big or too odd to commit (invalid UTF-8, a 20 MB article, symbolic
 * links, file names other systems refuse), generated into a temp folder.
 */
import {cp, mkdir, mkdtemp, symlink, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'

/** One case: how to build its folder, and what the CLI must say about it. */
export interface BadCase {
  name: string
  /** Fills the (empty) folder `dir`; `outside` is a folder beside it, not synced. */
  build(dir: string, outside: string): Promise<void>
  /** Exit code of `kbsync push` (2: an error, nothing written; 0: warnings only). */
  code: 0 | 2
  /** Every `file:line` (or `file:` for a name) the messages must name. */
  mentions: string[]
  /** A rule id that must appear. */
  rule: string
}

const committed = (name: string, mentions: string[], rule: string, code: 0 | 2): BadCase => ({
  name,
  code,
  mentions,
  rule,
  build: (dir) => cp(path.resolve('fixtures/bad', name), dir, {recursive: true})
})

/** A file the corpus puts outside the synced folder; it must never be read into a body. */
export const outsideSecret = 'OUTSIDE-SECRET-7f3a'

export const corpus: BadCase[] = [
  committed('unclosed-block', ['page.md:5'], 'kb-unclosed-block', 0),
  committed('stray-closer', ['page.md:5'], 'kb-stray-closing-tag', 0),
  committed('unknown-node', ['page.md:5'], 'kb-unknown-node', 0),
  committed('bad-colour', ['page.md:3', 'page.md:5'], 'kb-invalid-color', 0),
  committed('bad-front-matter', ['page.md:2'], 'front-matter-yaml', 2),
  committed('wrong-types', ['page.md:3'], 'permissions-invalid', 2),
  committed('bad-permissions-yaml', ['topic/_permissions.yml:2'], 'permissions-yaml', 2),
  committed('wrong-permissions-types', ['topic/_permissions.yml:3'], 'permissions-invalid', 2),
  committed('duplicate-titles', ['b.md:1'], 'title-disambiguated', 0),
  committed('empty-article', ['empty.md:1'], 'empty-body', 0),
  committed('dotdot-link', ['page.md:3'], 'link-outside', 2),
  committed('outside-image', ['page.md:3', 'page.md:5'], 'asset-outside', 2),
  {
    name: 'invalid-utf8',
    code: 2,
    mentions: ['bad.md:4'],
    rule: 'invalid-utf8',
    build: (dir) =>
      writeFile(
        path.join(dir, 'bad.md'),
        Buffer.concat([Buffer.from('# Bad\n\nfine line\n'), Buffer.from([0x62, 0xff, 0xfe, 0xc3, 0x28, 0x0a])])
      )
  },
  {
    name: 'symlink-loop',
    code: 0,
    mentions: ['sub/loop:'],
    rule: 'symlink-loop',
    build: async (dir) => {
      await mkdir(path.join(dir, 'sub'))
      await writeFile(path.join(dir, 'sub', 'page.md'), '# Page\n\ntext\n')
      await symlink('..', path.join(dir, 'sub', 'loop'))
    }
  },
  {
    name: 'symlink-outside',
    code: 0,
    mentions: ['leak.md:'],
    rule: 'symlink-outside',
    build: async (dir, outside) => {
      await writeFile(path.join(dir, 'page.md'), '# Page\n\ntext\n')
      await writeFile(path.join(outside, 'secret.md'), `# Secret\n\n${outsideSecret}\n`)
      await symlink(path.join(outside, 'secret.md'), path.join(dir, 'leak.md'))
    }
  },
  {
    name: 'file-names',
    code: 0,
    mentions: ['con.md:', 'a:b.md:', 'notes.md:', 'back\\slash.md:'],
    rule: 'file-name',
    build: async (dir) => {
      const names = {
        'con.md': 'Console',
        'a:b.md': 'Colon',
        'notes.md': 'Notes lower',
        'Notes.md': 'Notes upper',
        'back\\slash.md': 'Backslash'
      }
      for (const [name, title] of Object.entries(names)) await writeFile(path.join(dir, name), `# ${title}\n\ntext\n`)
    }
  }
]

/** A fresh temp folder for a case, and a sibling folder outside it. */
export async function caseFolder(name: string): Promise<{dir: string; outside: string}> {
  const base = await mkdtemp(path.join(tmpdir(), `kbsync-bad-${name}-`))
  const dir = path.join(base, 'docs')
  const outside = path.join(base, 'outside')
  await mkdir(dir)
  await mkdir(outside)
  return {dir, outside}
}

/** Writes an article of about `megabytes` MB (plain paragraphs) to `file`. */
export async function writeBigArticle(file: string, megabytes: number): Promise<void> {
  const paragraph = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.\n\n'
  await writeFile(file, '# Big\n\n' + paragraph.repeat(Math.ceil((megabytes * 1024 * 1024) / paragraph.length)))
}
