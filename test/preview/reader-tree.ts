/**
 * A small documentation tree written the way docs sites are (GitHub-style
 * heading links, fenced code with languages, nested folders, constructs the
 * dialect warns about), for the reader-facing browser tests of the preview.
 */
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

const filler = (n: number) =>
  Array.from({length: n}, (_, i) => `Paragraph ${i + 1} of filler text, so the page is taller than the window.`).join(
    '\n\n'
  )

/** Files of the tree, by path. */
export const readerFiles: Record<string, string> = {
  'README.md':
    '# Start\n\nRead [the setup guide](guide/setup.md) or jump to [recursive types](guide/setup.md#enabling-recursive-types).\n',
  'guide/_index.md': '---\ntitle: Guide\n---\n\nThe guide.\n',
  'guide/setup.md': [
    '# Setup',
    '',
    'Jump to [recursive types](#enabling-recursive-types), or read on.',
    '',
    ...Array.from({length: 12}, (_, i) => `- [ ] task ${i + 1}\n`),
    '#### Deep heading one',
    '',
    '#### Deep heading two',
    '',
    filler(25),
    '',
    '## Enabling Recursive Types',
    '',
    '```ts',
    'export const answer: number = 42 // the answer',
    'function greet(name: string): string {',
    '  return `hello ${name}`',
    '}',
    '```',
    '',
    '```nosuchlanguage',
    'plain words here',
    '```',
    '',
    filler(25),
    '',
    '[Back to the top](#setup)',
    ''
  ].join('\n'),
  'guide/wide.md': [
    '# Wide things',
    '',
    '| ' + Array.from({length: 14}, (_, i) => `column number ${i + 1}`).join(' | ') + ' |',
    '|' + ' --- |'.repeat(14),
    '| ' + Array.from({length: 14}, (_, i) => `value ${i + 1}`).join(' | ') + ' |',
    '',
    '```js',
    `const aVeryLongLine = ${JSON.stringify('x'.repeat(300))}`,
    '```',
    '',
    'A long address: https://example.com/' + 'segment/'.repeat(40),
    ''
  ].join('\n'),
  'guide/deep/_index.md': '---\ntitle: Deep topic\n---\n\nDeeper.\n',
  'guide/deep/more/_index.md': '---\ntitle: More topic\n---\n\nDeeper still.\n',
  'guide/deep/more/leaf.md': '# Leaf page\n\nAt the bottom.\n',
  'other/_index.md': '---\ntitle: Other topic\n---\n\nElsewhere.\n',
  'other/elsewhere.md': '# Elsewhere page\n\nNot on the way to the leaf.\n'
}

/** Writes the tree into a fresh temporary folder; returns it and its remover. */
export async function writeReaderTree(): Promise<{dir: string; remove: () => Promise<void>}> {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'kbsync-reader-'))
  const dir = path.join(parent, 'docs')
  for (const [relative, text] of Object.entries(readerFiles)) {
    await mkdir(path.dirname(path.join(dir, relative)), {recursive: true})
    await writeFile(path.join(dir, relative), text)
  }
  return {dir, remove: () => rm(parent, {recursive: true, force: true})}
}
