/**
 * The configuration keys: one table says, per key, its type, its
 * environment variable, its command-line flag and its default. Loading and
 * the documentation both follow this table.
 */
import {foreignDownloadValues} from '../../api/index.js'
import {publishKeyDefinitions} from './publish-keys.js'

/** How a raw value is checked and converted. */
export type KeyKind =
  | 'path'
  | 'url'
  | 'url-template'
  | 'string'
  | 'nullable-string'
  | 'int'
  | 'boolean'
  | 'string-list'
  | 'origin-list'
  | 'choice'
  | 'boolean-or-string'

/** One configuration key. */
export interface KeyDefinition {
  /** Dotted key as written in the config file (`watch.debounceMs`). */
  key: string
  kind: KeyKind
  /** Environment variable, when there is one. */
  env?: string
  /** Command-line flag without dashes, when there is one. */
  flag?: string
  /** Inclusive bounds of integers. */
  min?: number
  max?: number
  /** The values a `choice` takes. */
  choices?: readonly string[]
  /** One line for `docs/cli.md` and `kbsync init`. */
  doc: string
}

/** Every key a config file may hold. */
export const keyDefinitions: KeyDefinition[] = [
  {
    key: 'dir',
    kind: 'path',
    env: 'KBSYNC_DIR',
    flag: 'dir',
    doc: 'the folder of Markdown to sync (relative to the config file)'
  },
  {
    key: 'apiUrl',
    kind: 'url',
    env: 'KBSYNC_API_URL',
    flag: 'api-url',
    doc: 'the API of the platform; unset: the embedded local knowledge base'
  },
  {
    key: 'filesUrl',
    kind: 'url',
    env: 'KBSYNC_FILES_URL',
    flag: 'files-url',
    doc: 'the files service for uploads (default: from the API)'
  },
  {
    key: 'foreignDownloads',
    kind: 'choice',
    choices: foreignDownloadValues,
    env: 'KBSYNC_FOREIGN_DOWNLOADS',
    doc: 'a file URL outside the API and files services (an attachment elsewhere, a redirect away): "refuse" (default) to skip it, "anonymous" to fetch it without the token; the token never goes there'
  },
  {
    key: 'accountsUrl',
    kind: 'url',
    env: 'KBSYNC_ACCOUNTS_URL',
    doc: "where a login and security key log in (default: the platform's accounts service, or {apiUrl}/auth for any other API)"
  },
  {
    key: 'trustedOrigins',
    kind: 'origin-list',
    env: 'KBSYNC_TRUSTED_ORIGINS',
    doc: 'origins (https://host[:port]) credentials may also go to when a repository config or a login answer names them (not in a repository config)'
  },
  {
    key: 'personId',
    kind: 'int',
    env: 'KBSYNC_PERSON_ID',
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    doc: 'person_id sent with the login when several accounts share one login'
  },
  {
    key: 'rootTopic',
    kind: 'nullable-string',
    env: 'KBSYNC_ROOT_TOPIC',
    flag: 'root-topic',
    doc: 'the topic id the folder maps to; null: the knowledge-base root'
  },
  {
    key: 'tokenFile',
    kind: 'path',
    env: 'KBSYNC_TOKEN_FILE',
    flag: 'token-file',
    doc: 'a file holding the access token (not in a repository config: --token-file, KBSYNC_TOKEN_FILE or the user config)'
  },
  {
    key: 'concurrency',
    kind: 'int',
    env: 'KBSYNC_CONCURRENCY',
    flag: 'concurrency',
    min: 1,
    max: 64,
    doc: 'parallel requests'
  },
  {
    key: 'maxRateLimitWait',
    kind: 'int',
    env: 'KBSYNC_MAX_RATE_LIMIT_WAIT',
    min: 0,
    max: 3600,
    doc: "seconds the rate limit may hold a request before the run fails (the platform's interval is 600)"
  },
  {
    key: 'prune',
    kind: 'boolean',
    env: 'KBSYNC_PRUNE',
    flag: 'prune',
    doc: 'delete remote items kbsync created that no file maps to any more'
  },
  ...publishKeyDefinitions,
  {
    key: 'maxDeletions',
    kind: 'int',
    env: 'KBSYNC_MAX_DELETIONS',
    flag: 'max-deletions',
    min: 0,
    max: 1_000_000,
    doc: 'deletions allowed without --yes'
  },
  {
    key: 'maxWarnings',
    kind: 'int',
    env: 'KBSYNC_MAX_WARNINGS',
    flag: 'max-warnings',
    min: 0,
    max: 1_000_000_000,
    doc: 'a plan, push or watch run with more warnings than this fails (exit 2) before any write; unset: no limit'
  },
  {
    key: 'ignore',
    kind: 'string-list',
    env: 'KBSYNC_IGNORE',
    doc: 'extra gitignore-style patterns, skipped like .kbsyncignore ones by every command'
  },
  {
    key: 'brokenLinks',
    kind: 'choice',
    choices: ['error', 'warn'],
    env: 'KBSYNC_BROKEN_LINKS',
    flag: 'broken-links',
    doc: 'a link or image whose target does not exist: "error" (default) stops the run before any write; "warn" publishes its text (the link text, the image\'s alt) with a warning'
  },
  {
    key: 'permissions',
    kind: 'choice',
    choices: ['manage', 'ignore'],
    env: 'KBSYNC_PERMISSIONS',
    doc: 'whether the folder manages permissions: "manage" makes pull and status read every item\'s permissions (a change on the platform need not move its updated_at) and pull write them (_permissions.yml, front matter permissions); "ignore" reads and writes none; unset: managed where the folder declares some (a _permissions.yml or front matter permissions anywhere) and in a first pull into an empty folder, else not'
  },
  {
    key: 'locales',
    kind: 'choice',
    choices: ['topics', 'skip'],
    env: 'KBSYNC_LOCALES',
    doc: 'the locales of a docs site other than its default language (Starlight `locales`, Docusaurus `i18n`, Hugo `languages`): "topics" (default) publishes each as one root topic titled by its label, after the default language\'s items; "skip" publishes the default language only'
  },
  {
    key: 'locale',
    kind: 'string',
    env: 'KBSYNC_LOCALE',
    flag: 'locale',
    doc: 'publish only this locale of a docs site (its key or language tag, e.g. "es"), as the whole folder: push each locale to its own --root-topic'
  },
  {
    key: 'repoUrl',
    kind: 'url',
    env: 'KBSYNC_REPO_URL',
    doc: 'base URL of the repository\'s files, e.g. "https://github.com/org/repo/blob/main/": a link to a file of the repository outside the folder points there (unset: its text is published, with a warning)'
  },
  {
    key: 'siteRoot',
    kind: 'path',
    env: 'KBSYNC_SITE_ROOT',
    doc: 'the folder root-relative links and images (`/img/a.png`) are served from, e.g. Docusaurus\'s "static" (relative to the config file); tried after the repository root'
  },
  {
    key: 'browser',
    kind: 'path',
    env: 'KBSYNC_BROWSER',
    doc: 'the Chromium or Chrome executable that renders Mermaid diagrams (not in a repository config: KBSYNC_BROWSER or the user config; unset: /usr/bin/chromium and the other usual places; see docs/diagrams.md)'
  },
  {
    key: 'plantuml',
    kind: 'path',
    env: 'KBSYNC_PLANTUML',
    doc: 'the PlantUML program that renders ```plantuml blocks (not in a repository config: KBSYNC_PLANTUML or the user config; unset: `plantuml` on PATH; see docs/diagrams.md)'
  },
  {
    key: 'd2',
    kind: 'path',
    env: 'KBSYNC_D2',
    doc: 'the D2 program that renders ```d2 blocks (not in a repository config: KBSYNC_D2 or the user config; unset: `d2` on PATH; see docs/diagrams.md)'
  },
  {
    key: 'articleUrl',
    kind: 'url-template',
    env: 'KBSYNC_ARTICLE_URL',
    flag: 'article-url',
    doc: 'URL of an article in the web application, {id} standing for its id (links in kbsync convert --to gfm|html)'
  },
  {
    key: 'checkLinks.warn',
    kind: 'boolean',
    env: 'KBSYNC_CHECK_LINKS_WARN',
    flag: 'warn',
    doc: 'kbsync check-links and plan --check-links: a broken external link is a warning (exit 0), not an error (exit 2)'
  },
  {
    key: 'checkLinks.concurrency',
    kind: 'int',
    env: 'KBSYNC_CHECK_LINKS_CONCURRENCY',
    flag: 'link-concurrency',
    min: 1,
    max: 64,
    doc: 'external links checked at once (default 8)'
  },
  {
    key: 'checkLinks.perHost',
    kind: 'int',
    env: 'KBSYNC_CHECK_LINKS_PER_HOST',
    flag: 'per-host',
    min: 1,
    max: 16,
    doc: 'external links of one host checked at once (default 2)'
  },
  {
    key: 'checkLinks.timeoutMs',
    kind: 'int',
    env: 'KBSYNC_CHECK_LINKS_TIMEOUT_MS',
    flag: 'link-timeout',
    min: 100,
    max: 300_000,
    doc: 'time-out of one request of the link check, in milliseconds (default 10000)'
  },
  {
    key: 'checkLinks.cacheHours',
    kind: 'int',
    env: 'KBSYNC_CHECK_LINKS_CACHE_HOURS',
    min: 0,
    max: 8760,
    doc: 'how long an OK link is not checked again (.kbsync/link-cache.json; default 24); broken ones are checked every run'
  },
  {
    key: 'checkLinks.exclude',
    kind: 'string-list',
    env: 'KBSYNC_CHECK_LINKS_EXCLUDE',
    doc: 'URLs the link check skips: a pattern with * matches the whole URL, one without is a prefix ("https://internal.example.com/")'
  },
  {
    key: 'watch.debounceMs',
    kind: 'int',
    env: 'KBSYNC_WATCH_DEBOUNCE_MS',
    flag: 'debounce',
    min: 0,
    max: 60_000,
    doc: 'quiet time before watch pushes a burst of changes'
  },
  {
    key: 'preview.port',
    kind: 'int',
    env: 'KBSYNC_PREVIEW_PORT',
    flag: 'port',
    min: 0,
    max: 65_535,
    doc: 'port of kbsync preview'
  }
]

/** Keys that hold secrets: refused in every config file (a repository's is committed; none is meant to hold a secret). */
export const forbiddenFileKeys: Record<string, string> = {
  token:
    'a config file is usually committed; put the token in KBSYNC_TOKEN, or in a file named by --token-file, KBSYNC_TOKEN_FILE or "tokenFile" in your user config',
  securityKey: 'a config file is usually committed; put the security key in KBSYNC_SECURITY_KEY',
  password: 'a config file is usually committed; use KBSYNC_LOGIN and KBSYNC_SECURITY_KEY'
}
