/**
 * Finding and reading the config file: `kbsync.config.json` or
 * `.kbsyncrc.json`, in the working directory or the nearest folder above it
 * inside the same repository.
 */
import {readFile, stat} from 'node:fs/promises'
import path from 'node:path'
import {repositoryBoundary} from '../../trust/index.js'
import {ConfigError} from './errors.js'

/** The file names looked for, in order of preference within one folder. */
export const configFileNames = ['kbsync.config.json', '.kbsyncrc.json'] as const

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile()
  } catch {
    return false
  }
}

/**
 * The nearest config file at or above `cwd` up to the root of the repository
 * that holds `cwd` (only `cwd` itself when it lies in no repository), or
 * undefined. A file above the repository (a parent folder of the clone, a
 * shared `/tmp`) belongs to someone else and is never used.
 */
export async function findConfigFile(cwd: string): Promise<string | undefined> {
  const boundary = await repositoryBoundary(cwd)
  let dir = path.resolve(cwd)
  for (;;) {
    for (const name of configFileNames) {
      const file = path.join(dir, name)
      if (await isFile(file)) return file
    }
    const parent = path.dirname(dir)
    if (dir === boundary || parent === dir) return undefined
    dir = parent
  }
}

/** Reads a config file: a JSON object, or a `ConfigError` naming the file and the line. */
export async function readConfigFile(file: string): Promise<Record<string, unknown>> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new ConfigError(
      `cannot read the config file (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      'config',
      file
    )
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    const message = (error as Error).message
    const position = /position (\d+)/.exec(message)
    const line = position ? text.slice(0, Number(position[1])).split('\n').length : undefined
    throw new ConfigError(`not valid JSON${line ? ` (line ${line})` : ''}: ${message}`, 'config', file)
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new ConfigError('must hold a JSON object', 'config', file)
  return data as Record<string, unknown>
}
