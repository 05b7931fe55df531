/**
 * What every sync command starts with: the config (flags > environment >
 * file > defaults), the reporter, and a connection to the knowledge base
 * (the API when one is configured, else the embedded local one).
 */
import {stat} from 'node:fs/promises'
import type {Command, CommandContext} from './command.js'
import {loadConfig, type KbsyncConfig} from './config.js'
import {connect} from './connect.js'
import {UsageError} from './errors.js'
import {rateLimitNotices} from './rate-limit-notice.js'
import {reporterFor, type Reporter} from './output/index.js'
import {formatClientEvent, type ClientEvent} from '../api/index.js'
import type {PushOptions, SyncClient} from '../sync/index.js'
import type {DiagramOptions} from '../diagrams/index.js'
import {removeStaleTemps, type LinkOptions, type LocaleChoice, type StateTarget} from '../local/index.js'

/** Options shared by the commands that talk to a knowledge base. */
export const connectionOptions = {
  config: {type: 'string'},
  dir: {type: 'string'},
  'api-url': {type: 'string'},
  'files-url': {type: 'string'},
  'token-file': {type: 'string'},
  'root-topic': {type: 'string'},
  concurrency: {type: 'string'},
  'max-deletions': {type: 'string'},
  quiet: {type: 'boolean'},
  verbose: {type: 'boolean'}
} satisfies Command['options']

/** The `--help` lines of `connectionOptions`, one per option (a test checks each is there). */
export const connectionOptionsHelp = `Connection and output (each also a config key or KBSYNC_* variable, see docs/cli.md):
  --config FILE      use this config file instead of searching for one
  --dir DIR          the folder (the same as the DIR argument)
  --api-url URL      the platform's API (default: the embedded local knowledge base)
  --files-url URL    the files service for uploads (default: from the API)
  --token-file F     read the access token from file F (the token never goes on the command line)
  --root-topic ID    the topic the folder maps to (default: the knowledge-base root)
  --concurrency N    parallel requests (default 8)
  --max-deletions N  deletions allowed without --yes (default 10)
  --quiet            only warnings, errors and diagnostics
  --verbose          also the client's requests, retries and waits (never a secret)`

/** A connection to the knowledge base the commands talk to. */
export interface SyncTarget {
  client: SyncClient
  /** Where the pushes go, for the first line of output (never the token). */
  description: string
  /** The knowledge base as the sync state names it (absent: the client's API URL names it). */
  stateTarget?: StateTarget
  close(): Promise<void>
}

/** Everything a sync command starts with: config, reporter, connection. */
export interface SyncSession {
  config: KbsyncConfig
  reporter: Reporter
  target: SyncTarget
  /** The run's stop (SIGINT/SIGTERM), given to the client and to the engine. */
  signal?: AbortSignal
}

/**
 * Loads the config (flags > environment > file > defaults), makes the
 * reporter and connects: to the API when one is configured, else to the
 * embedded local knowledge base (the command says which); with
 * `embeddedDir`, to that folder's embedded knowledge base (`pull --from`).
 */
export async function openSession(
  context: CommandContext,
  options: {mayCreateDir?: boolean; embeddedDir?: string} = {}
): Promise<SyncSession> {
  // Before connecting: a typo in the folder must fail the run (exit 2), not sync an empty folder it created.
  const config = await folderConfig(context, {mayCreateDir: options.mayCreateDir === true})
  // GITHUB_TOKEN: `pull --pull-request` holds it; no line of the run shows it.
  const secrets = [config.token, config.securityKey, context.env.GITHUB_TOKEN]
  const reporter = reporterFor(context, {dir: config.dir, secrets})
  // A run killed earlier may have left temporary files beside documents (which `git add -A` would commit): gone first.
  const stale = await removeStaleTemps(config.dir, {ignore: config.ignore})
  if (stale.length > 0) reporter.debug(`removed temporary files of a run that stopped: ${stale.join(', ')}`)
  // --verbose shows the client's requests, retries and waits (never a secret); a long rate-limit wait is always said.
  const notice = rateLimitNotices((line) => reporter.warn(line))
  const onEvent = (event: ClientEvent) => {
    reporter.debug(formatClientEvent(event))
    notice(event)
  }
  const signal = context.shutdown?.signal
  const target = await connect(config, {
    cwd: context.cwd,
    onEvent,
    ...(options.embeddedDir !== undefined ? {embeddedDir: options.embeddedDir} : {}),
    ...(signal ? {signal} : {})
  })
  return {config, reporter, target, ...(signal ? {signal} : {})}
}

/**
 * What every command working on a folder starts with: at most one DIR, not
 * both --quiet and --verbose, the config (flags > environment > file >
 * defaults; `withoutSecrets` for commands that never connect), and the
 * folder and site root checked.
 */
export async function folderConfig(
  context: CommandContext,
  options: {mayCreateDir?: boolean; withoutSecrets?: boolean} = {}
): Promise<KbsyncConfig> {
  if (context.positionals.length > 1)
    throw new UsageError(`expected at most one folder, not ${context.positionals.length}`)
  if (context.values.quiet === true && context.values.verbose === true)
    throw new UsageError('--quiet and --verbose contradict each other: pick one')
  const positional = context.positionals[0]
  const config = await loadConfig({
    cwd: context.cwd,
    env: context.env,
    flags: context.values,
    ...(options.withoutSecrets ? {withoutSecrets: true} : {}),
    ...(positional ? {dir: positional} : {})
  })
  await checkFolders(config, options.mayCreateDir === true)
  return config
}

/** `checkFolder` of the config's folder, and its site root must be a folder: every command that scans checks both. */
export async function checkFolders(config: Pick<KbsyncConfig, 'dir' | 'siteRoot'>, mayCreate = false): Promise<void> {
  await checkFolder(config.dir, mayCreate)
  if (config.siteRoot !== undefined && !(await stat(config.siteRoot).catch(() => undefined))?.isDirectory()) {
    throw new UsageError(
      `the site root ${config.siteRoot} is not a folder (check "siteRoot" in the config file or KBSYNC_SITE_ROOT)`
    )
  }
}

/**
 * Checks that the folder a command works on is one. A missing folder is
 * refused unless the command may create it (`pull` into a new folder).
 */
async function checkFolder(dir: string, mayCreate = false): Promise<void> {
  const info = await stat(dir).catch(() => undefined)
  if (info?.isDirectory()) return
  if (info) throw new UsageError(`${dir} is not a folder`)
  if (!mayCreate)
    throw new UsageError(`the folder ${dir} does not exist (check the DIR argument, --dir or "dir" in the config file)`)
}

/** The engine options a config gives (plus the command's own). */
export function pushOptionsOf(session: SyncSession, extra: Partial<PushOptions> = {}): PushOptions {
  const {config, target} = session
  return {
    dir: config.dir,
    client: target.client,
    rootTopicId: config.rootTopic,
    ...(target.stateTarget ? {target: target.stateTarget} : {}),
    ...orphanOptionsOf(config),
    ...(config.notice !== undefined ? {notice: config.notice} : {}),
    ...(config.lock !== undefined ? {lock: config.lock} : {}),
    maxDeletions: config.maxDeletions,
    ...(config.maxWarnings !== undefined ? {maxWarnings: config.maxWarnings} : {}),
    concurrency: config.concurrency,
    ignore: config.ignore,
    links: linkOptionsOf(config),
    locales: localeChoiceOf(config),
    diagrams: diagramOptionsOf(config),
    ...(session.signal ? {signal: session.signal} : {}),
    ...extra
  }
}

/**
 * What becomes of orphans, as the config says: `onOrphan`, or `prune` (its
 * older name for `delete`). Set at different levels (a flag and a file), the
 * higher wins; at the same level, a contradiction is refused.
 */
export function orphanOptionsOf(
  config: Pick<KbsyncConfig, 'prune' | 'onOrphan' | 'archiveTopic' | 'sources'>
): Pick<PushOptions, 'prune' | 'onOrphan' | 'archiveTopic'> {
  const mode = orphanModeOf(config)
  return {
    prune: mode === 'delete',
    ...(mode !== undefined ? {onOrphan: mode} : {}),
    ...(config.archiveTopic !== undefined ? {archiveTopic: config.archiveTopic} : {})
  }
}

function orphanModeOf(config: Pick<KbsyncConfig, 'prune' | 'onOrphan' | 'sources'>): PushOptions['onOrphan'] {
  if (config.onOrphan === undefined) return config.prune ? 'delete' : undefined
  if (!config.prune || config.onOrphan === 'delete') return config.onOrphan
  const rank = (source: string | undefined) => ['flag', 'env', 'file', 'user', 'default'].indexOf(source ?? 'default')
  const prune = rank(config.sources.prune)
  const onOrphan = rank(config.sources.onOrphan)
  if (prune === onOrphan)
    throw new UsageError(
      `--prune deletes orphans and --on-orphan ${config.onOrphan} does not: give one of them (--on-orphan delete is --prune)`
    )
  return prune < onOrphan ? 'delete' : config.onOrphan
}

/** What a docs site's locales become, as the config says (`locales`, `--locale`). */
export function localeChoiceOf(config: Pick<KbsyncConfig, 'locales' | 'locale'>): LocaleChoice {
  return {mode: config.locales, ...(config.locale !== undefined ? {only: config.locale} : {})}
}

/** The programs that render diagrams, as the config names them (never a repository config: `userOnlyKeys`). */
function diagramOptionsOf(config: Pick<KbsyncConfig, 'browser' | 'plantuml' | 'd2'>): DiagramOptions {
  return {
    ...(config.browser !== undefined ? {browser: config.browser} : {}),
    ...(config.plantuml !== undefined ? {plantuml: config.plantuml} : {}),
    ...(config.d2 !== undefined ? {d2: config.d2} : {})
  }
}

/** How links resolve beyond the folder's documents, as the config says: every command that scans uses the same. */
export function linkOptionsOf(config: Pick<KbsyncConfig, 'brokenLinks' | 'repoUrl' | 'siteRoot'>): LinkOptions {
  return {
    brokenLinks: config.brokenLinks,
    ...(config.repoUrl !== undefined ? {repoUrl: config.repoUrl} : {}),
    ...(config.siteRoot !== undefined ? {siteRoot: config.siteRoot} : {})
  }
}
