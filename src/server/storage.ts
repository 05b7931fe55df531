/**
 * Where the local server keeps its knowledge base: the store in memory, its
 * data file (a snapshot and a log of changes) and the uploaded files, in
 * memory when no data path is given.
 */
import type {Access} from './exposure.js'
import {diskFileStore, memoryFileStore, type FileStore} from './file-store.js'
import {groupCommit} from './group-commit.js'
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
  /**
   * Persists what the last operation changed (a few lines for the log):
   * resolves once they are on disk. Writes that arrive while a sync runs
   * are appended and synced together after it (`group-commit.ts`).
   */
  persist(): Promise<void>
  /** Persists what the last operation changed, on disk when it returns. */
  persistNow(): void
}

/** Loads the data file (if any) into a store and the token list, and opens the files folder beside it. */
export function openStorage(given: {dataPath: string | undefined; access: Access; context: StoreContext}): Storage {
  const dataFile = given.dataPath ? openDataFile(given.dataPath) : undefined
  const persisted = dataFile?.load()
  const files = given.dataPath ? diskFileStore(filesDir(given.dataPath)) : memoryFileStore()
  const store = new KbStore(given.context, persisted)
  const tokens = createTokens(given.access.token, given.access.credentials, persisted)
  const compact = () => dataFile?.compact({head: {schemaVersion: 1, ...tokens.persisted()}, ...store.data()})
  const compactIfDue = () => {
    if (dataFile?.wantsCompaction()) compact()
  }
  const commit = groupCommit(async () => {
    await dataFile?.flush()
    compactIfDue()
  })
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
      if (!dataFile) return Promise.resolve()
      dataFile.append(changes)
      return commit()
    },
    persistNow() {
      const changes = store.takeChanges()
      dataFile?.append(changes)
      dataFile?.flushSync()
      compactIfDue()
    }
  }
}
