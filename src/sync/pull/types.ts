/** Options, events and results of `pull`. */
import type {KbItem, Permissions, StructureNode} from '../../api/types.js'
import type {Diagnostic, LinkOptions, LocaleChoice, StateTarget} from '../../local/index.js'
import type {PullOp, PullPlan} from './plan.js'
import type {PermissionsSetting} from '../shared/permissions-managed.js'

/** The API calls a pull makes (the `KbClient` of `src/api` has them all). */
export interface PullClient {
  getTree(parentTopicId: string | null): Promise<StructureNode[]>
  getItem(id: string): Promise<KbItem>
  getPermissions(id: string): Promise<Permissions>
  /** Downloads `url` to `destPath`; the answer must match `expected` (what the item's record says of the file). */
  downloadFile(url: string, destPath: string, expected?: {name?: string; size?: number}): Promise<unknown>
}

/** Options of `pull`. */
export interface PullOptions {
  /** The folder to pull into (created when missing). */
  dir: string
  client: PullClient
  /** The topic the folder maps to; `null` or absent: the knowledge-base root. */
  rootTopicId?: string | null
  /** The knowledge base the client talks to, which names its part of the sync state (default: the client's API URL). */
  target?: StateTarget
  /** Extra gitignore-style patterns the scan skips, like `.kbsyncignore` ones (the config's `ignore`). */
  ignore?: readonly string[]
  /**
   * How links resolve beyond the folder, as push takes them (the config's `brokenLinks`, `repoUrl`, `siteRoot`):
   * the check after the pull warns "push will refuse this" only where a push with these would.
   */
  links?: LinkOptions
  /** Plan only: write nothing. */
  dryRun?: boolean
  /** The notice push puts at the top of each article (config `notice`; `repoUrl` for its link): a pulled file renders back with it, so the next push writes nothing. Pull never writes it into a file, whatever this says. */
  notice?: boolean | string
  repoUrl?: string
  /** The archive topic's title when orphans are archived (`onOrphan: archive`): that topic and what it holds stay on the platform, never written into the folder. */
  archiveTopic?: string
  /**
   * Whether to read and write permissions (`shared/permissions-managed.ts`). `true` or absent (`auto`): where the
   * folder manages them (it declares some, or is empty), every item's are read and written; elsewhere none.
   * `'manage'` (config `permissions`): always; `false` or `'ignore'` (`--no-permissions`, config `permissions`):
   * never, and `_permissions.yml` files and front matter `permissions` in the folder are left as they are.
   */
  permissions?: boolean | PermissionsSetting
  /** Parallel requests (default 8). */
  concurrency?: number
  /** URL of an article in the web application, `{id}` standing for its id (config `articleUrl`): links in this form become relative links, and relative links of a body are resolved against it (default pyrus.com's). */
  articleUrl?: string
  /** What a docs site's locales become (config `locales`), as for push. */
  locales?: LocaleChoice
  onEvent?: (event: PullEvent) => void
  /** Stops the run as push's `signal` does: each file written so far is recorded; rejects with `StoppedError`. */
  signal?: AbortSignal
}

/** A progress event of `pull`. */
export type PullEvent =
  | {type: 'plan'; plan: PullPlan}
  | {type: 'done'; op: PullOp; changed: boolean; note?: string}
  | {type: 'download'; url: string; path: string}
  /** `unmergeable`: not edited here; the platform's edit could not be written into the file faithfully. */
  | {type: 'conflict-file'; op: PullOp; file: string; unmergeable?: true}
  | {type: 'failed'; op: PullOp; error: string}

/** The outcome of `pull`. */
export interface PullResult {
  plan: PullPlan
  /** `ok`; `conflict` (conflicts left, local files kept); `failed` (some step failed). */
  status: 'ok' | 'conflict' | 'failed'
  /** Repo-relative files written, moved or deleted (documents, permissions, downloads, conflict copies). */
  written: string[]
  /** Conflict copies written (`NAME.remote.md`). */
  conflicts: string[]
  failed: Array<{op: PullOp; error: string}>
  /** Warnings found on the way (permissions not readable, bodies that would not render back exactly, ...). */
  diagnostics: Diagnostic[]
}
