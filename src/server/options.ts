/**
 * What the local server is started with, and what a running one offers its
 * starter (tests inspect and steer it through these).
 */
import type {KbItem, Person} from '../api/types.js'
import type {FailMode} from './faults.js'
import type {PlatformHabits, ResolvedHabits} from './habits.js'
import type {RateLimitOptions} from './rate-limit.js'

// The public types of the server live here, free of Node's types: a user's TypeScript needs no @types/node to read them.

/** Which endpoint a request hit (for the request log and counts). */
export type Endpoint =
  | 'get'
  | 'create'
  | 'update'
  | 'delete'
  | 'structure'
  | 'getPermissions'
  | 'setPermissions'
  | 'upload'
  | 'download'
  | 'auth'
  | 'browse'

/** How large request bodies may be (bytes). */
export interface BodyLimits {
  /** A JSON body (default 16 MiB: the largest article the scanner sends, 5 MiB, escaped). */
  jsonBytes: number
  /** An uploaded file, multipart framing included (default 256 MiB). */
  fileBytes: number
}

/** One line of the request log (never a token). */
export interface RequestLogEntry {
  method: string
  path: string
  status: number
  endpoint: Endpoint | 'unknown'
  write: boolean
  faulted?: string
  at: number
}

/** Options of `startServer`. */
export interface ServerOptions {
  /** 0 (default) picks a free port. */
  port?: number
  /** Default 127.0.0.1. Any other address exposes the server: it then needs `token` and refuses the public defaults. */
  host?: string
  /** Host names requests may address besides the loopback ones and `host` (e.g. the machine's name when `host` is 0.0.0.0). */
  allowedHosts?: string[]
  /** Persist to this JSON file (with a log beside it, `<file>.log`); in memory when absent. */
  dataPath?: string
  /** The accepted bearer token (default `kbsync-local-token`, on loopback only). */
  token?: string
  /** Accepted by `POST /v4/auth` (and `/api/v4/auth`), both or neither (defaults `local` / `local-key` on loopback; beyond it, no login without them). */
  login?: string
  securityKey?: string
  /** Request size limits (defaults: 16 MiB of JSON, 256 MiB per file). */
  limits?: Partial<BodyLimits>
  latencyMs?: number
  /**
   * The real platform's habits, all off by default (see `habits.ts`): `true`
   * stores bodies re-serialised as the platform writes them and fails
   * writes of bodies with nested fences; an object picks habits one by one,
   * e.g. `{dropOver: 20}` drops connections while more than 20 requests
   * arrived within a second, `{loginPersonIds: [1, 7]}` makes `/auth` need
   * a `person_id`.
   */
  platformHabits?: boolean | PlatformHabits
  failRate?: number
  failModes?: FailMode[]
  seed?: number
  /** Default 5000 requests per 600 seconds. */
  rateLimit?: RateLimitOptions
  /** Structure depth cap (default 3). */
  maxDepth?: number
  /** GET of an article prefixes `# <title>` like the platform (default true). */
  prefixTitle?: boolean
  /** Users known to the permissions endpoints (default ids 1001-1005). */
  users?: Person[]
  /**
   * Whether a permissions change moves the item's `updated_at` and
   * `version` (default true). The API contract does not promise it: `false`
   * is a server that conforms and does not, for testing that a client reads
   * permissions without relying on `updated_at`.
   */
  permissionsMoveStamp?: boolean
  /** How many of the most recent requests `requestLog()` keeps (default 50,000); `counts()` and `requestCount()` count them all. */
  requestLogLimit?: number
}

/** A running local server. */
export interface RunningServer {
  apiUrl: string
  filesUrl: string
  token: string
  /** The platform habits it was started with. */
  habits: ResolvedHabits
  close(): Promise<void>
  /** The most recent requests since the last reset, oldest first (at most `requestLogLimit` of them). */
  requestLog(): RequestLogEntry[]
  /** Requests by endpoint, and `writes`, since the last reset. */
  counts(): Record<string, number>
  /** How many requests arrived since the last reset (the log may keep only the most recent ones). */
  requestCount(): number
  resetLog(): void
  webEdit(id: string, change: {title?: string; body?: string}): KbItem
  items(): KbItem[]
  /** Changes the injected faults while running; `dropOver` 0 stops dropping connections. */
  setFaults(faults: {
    failRate?: number
    latencyMs?: number
    failModes?: FailMode[]
    rateLimit?: RateLimitOptions
    dropOver?: number
  }): void
  revokeToken(token: string): void
  expireToken(token: string): void
}
