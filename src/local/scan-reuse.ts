/**
 * What a scan may take from an earlier one instead of doing it again: the
 * bytes of unchanged files, the head (front matter and title heading) of
 * unchanged documents, what converting an unchanged body found, and the
 * hash of unchanged local files. Each step is a pure function of a file's
 * content, so reusing its result yields exactly what a fresh scan yields
 * (`rescan.ts` keeps them between the scans of a preview or a watch).
 */
import type {BodyFacts} from './body-cache.js'
import type {DocumentHead} from './body.js'
import type {Diagnostic} from './diagnostic.js'
import type {FileHash} from './hash.js'
import type {Ignore} from 'ignore'
import type {WalkedDir} from './walk.js'

/** Where the body phase reads and records what parsing a body found (`BodyCache` is one). */
export interface BodyStore {
  get(key: string): BodyFacts | undefined
  set(key: string, facts: BodyFacts): void
}

/** The per-file steps of a scan, as a scan that reuses earlier work runs them. */
export interface ScanReuse {
  /** Reads the text files `relatives` under `root` (`readFiles` of `text.ts`). */
  readFiles(root: string, relatives: readonly string[]): Promise<Map<string, Uint8Array>>
  /** The head of the document `file` whose text is `text` (`readDocumentHead`), its problems added to `diagnostics`. */
  readHead(text: string, file: string, diagnostics: Diagnostic[]): DocumentHead
  /** What converting each body found, by body key. */
  bodies: BodyStore
  /** The folder's entries (`walkFolder`): the last walk's when only the contents of files it listed changed. */
  walk(root: string, rules: Ignore, diagnostics: Diagnostic[]): Promise<WalkedDir>
  /** sha256 and size of the local file at `absolute` (`hashFile`). */
  hashFile(absolute: string): Promise<FileHash>
}
