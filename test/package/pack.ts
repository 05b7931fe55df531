/**
 * The published package as a user gets it: packed as `npm pack` would
 * publish it (package.json, README and the suite's build as dist/, with the
 * package's own `files` rules), installed into a fresh project from the
 * tarball, offline where npm's cache allows.
 */
import {execFileSync} from 'node:child_process'
import {cp, mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {builtDir} from '../built.js'

/** The repository root. */
export const repo = fileURLToPath(new URL('../..', import.meta.url))

/** Runs npm quietly in `cwd`; its standard output. */
export function npm(args: string[], cwd: string): string {
  return execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe']
  })
}

/** Packs the package into `scratch`; the tarball's path. */
export async function pack(scratch: string): Promise<string> {
  const stage = path.join(scratch, 'stage')
  await mkdir(stage)
  await cp(path.join(repo, 'package.json'), path.join(stage, 'package.json'))
  await cp(path.join(repo, 'README.md'), path.join(stage, 'README.md'))
  await cp(builtDir, path.join(stage, 'dist'), {recursive: true})
  const name = npm(['pack', '--ignore-scripts', '--pack-destination', scratch], stage).trim().split('\n').pop()!
  return path.join(scratch, name)
}

/**
 * A fresh ESM project in `scratch/consumer` with the tarball installed (and
 * `more` packages from the registry); `libraryOnly` installs as a library
 * user may, `--omit=optional`, without the renderers and the highlighter.
 */
export async function consumerProject(
  scratch: string,
  tarball: string,
  {more = [], libraryOnly = false}: {more?: string[]; libraryOnly?: boolean} = {}
): Promise<string> {
  const consumer = path.join(scratch, 'consumer')
  await mkdir(path.join(consumer, 'src'), {recursive: true})
  await writeFile(
    path.join(consumer, 'package.json'),
    JSON.stringify({name: 'consumer', private: true, type: 'module'})
  )
  const omit = libraryOnly ? ['--omit=optional'] : []
  npm(['install', '--prefer-offline', '--ignore-scripts', ...omit, tarball, ...more], consumer)
  return consumer
}
