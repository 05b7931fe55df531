/**
 * Edits that a change detector keyed on size and modification time alone would miss: the text changes,
 * its size does not, and the time stamps are put back.
 */
import {readFile, stat, utimes, writeFile} from 'node:fs/promises'
import {expect} from 'vitest'

/** Rewrites `file` with `edit` of its text, keeping its size (asserted) and putting its time stamps back. */
export async function rewriteKeepingStamps(file: string, edit: (text: string) => string): Promise<void> {
  const text = await readFile(file, 'utf8')
  const before = await stat(file)
  await writeFile(file, edit(text))
  await utimes(file, before.atime, before.mtime)
  expect((await stat(file)).size).toBe(before.size)
}

/** Changes one letter of the body of `file` for another (the last `the ` becomes `thy `), keeping its stamps. */
export async function editInPlace(file: string): Promise<void> {
  await rewriteKeepingStamps(file, (text) => {
    const at = text.lastIndexOf('the ')
    expect(at).toBeGreaterThan(0)
    return text.slice(0, at) + 'thy ' + text.slice(at + 4)
  })
}
