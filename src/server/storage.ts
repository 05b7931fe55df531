/**
 * Where the local server keeps its knowledge base: the store in memory, its
 * data file (a snapshot and a log of changes) and the uploaded files, in
 * memory when no data path is given.
 */
import type {Access} from './exposure.js'
import {diskFileStore, memoryFileStore, type FileStore} from './file-store.js'
import {filesDir, openDataFile, type DataFile} from './persist.js'
import {KbStore, type StoreContext} from './store.js'
import {createTokens} from './tokens.js'

/** The opened storage of a server and how it is written back. */
export interface Storage {
  store: KbStore
  tokens: ReturnType<typeof createTokens>
  files: FileStore
  dataFile: DataFile | undefined
  /** Rewrites the snapshot from the whole store and empties the log. */
  compact(): void
  /** Compacts unless the snapshot alone already holds the store (a start or stop of a large store need not rewrite it). */
  settle(): void
  /** Persists what the last operation changed: a few lines appended to the log. */
  persist(): void
}

/** Loads the data file (if any) into a store and the token list, and opens the files folder beside it. */
export function openStorage(given: {dataPath: string | undefined; access: Access; context: StoreContext}): Storage {
  const dataFile = given.dataPath ? openDataFile(given.dataPath) : undefined
  const persisted = dataFile?.load()
  const files = given.dataPath ? diskFileStore(filesDir(given.dataPath)) : memoryFileStore()
  const store = new KbStore(given.context, persisted)
  const tokens = createTokens(given.access.token, given.access.credentials, persisted)
  const compact = () => dataFile?.compact({schemaVersion: 1, ...store.data(), ...tokens.persisted()})
  return {
    store,
    tokens,
    files,
    dataFile,
    compact,
    settle() {
      if (dataFile && !dataFile.isClean()) compact()
    },
    persist() {
      const changes = store.takeChanges()
      if (!dataFile) return
      dataFile.append(changes)
      if (dataFile.wantsCompaction()) compact()
    }
  }
}
