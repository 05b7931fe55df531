/** Helpers of the diagram suites: temporary folders removed after the file's tests, and upload counting on the local server. */
import {rm} from 'node:fs/promises'
import {afterAll} from 'vitest'
import {tempDir} from '../cli/helpers.js'
import type {LocalServer} from '../e2e/local-server.js'

/** Registers the removal of the folders it makes once the calling file's tests ran; returns the maker. */
export function useFolders(prefix: string): () => Promise<string> {
  const folders: string[] = []
  afterAll(async () => {
    for (const dir of folders) await rm(dir, {recursive: true, force: true})
  })
  return async () => {
    const dir = await tempDir(prefix)
    folders.push(dir)
    return dir
  }
}

/** Upload requests the local server saw since its log was last reset. */
export function uploadsSeen(local: LocalServer): number {
  return local.server.requestLog().filter((entry: {path: string}) => entry.path.endsWith('/files/upload')).length
}
