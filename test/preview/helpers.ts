/** Shared set-up of the preview suites: a scratch copy of the fixture folder. */
import {cp, mkdtemp, rm} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

/** The repository's root. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url))

/** The fixture folder of the preview. */
export const fixtureDir = path.join(repoRoot, 'fixtures/preview')

/** Copies the fixture folder to a fresh temporary folder (tests edit files) and returns it with its remover. */
export async function scratchCopy(): Promise<{dir: string; remove: () => Promise<void>}> {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'kbsync-preview-'))
  const dir = path.join(parent, 'docs')
  await cp(fixtureDir, dir, {recursive: true})
  return {dir, remove: () => rm(parent, {recursive: true, force: true})}
}
