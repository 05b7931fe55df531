/**
 * `kbsync init`: writes `kbsync.config.json` (explained by its `$comment`
 * key, since JSON has no comments), a `.kbsyncignore` in the synced folder,
 * and `.kbsync/.gitignore` there, which keeps the embedded knowledge base
 * (`local-kb.json*`: its data, its files, its server record) out of git.
 */
import {readFile, stat} from 'node:fs/promises'
import path from 'node:path'
import {checkWritesInside, writeFileInside} from '../../local/index.js'
import type {Command, CommandContext} from '../command.js'
import {commandSummary} from './catalog.js'
import {configFileNames, keyDefinitions} from '../config.js'
import {exitCodes} from '../exit-codes.js'
import {reporterFor} from '../output/index.js'
import {UsageError} from '../errors.js'

async function kind(file: string): Promise<'file' | 'dir' | undefined> {
  try {
    return (await stat(file)).isDirectory() ? 'dir' : 'file'
  } catch {
    return undefined
  }
}

/** The config `init` writes: every key with its default and a `$comment` that explains them (pure). */
export function initialConfig(options: {
  dir: string
  apiUrl?: string
  rootTopic?: string | null
}): Record<string, unknown> {
  const comment = [
    'kbsync configuration; reference: docs/cli.md. Flags override KBSYNC_* environment variables, which override this file.',
    'Secrets never go here (this file is usually committed): set KBSYNC_TOKEN, or KBSYNC_LOGIN and KBSYNC_SECURITY_KEY, or name a file holding the token with --token-file or KBSYNC_TOKEN_FILE. This file is the repository\'s data: "browser", "tokenFile", "login" and "trustedOrigins" belong in your user config (~/.config/kbsync/config.json) or the environment.',
    'Without "apiUrl" kbsync uses the embedded local knowledge base in <dir>/.kbsync/local-kb.json; set it (e.g. "https://api.pyrus.com/v4") to sync with the platform.',
    ...keyDefinitions.map((d) => `${d.key}: ${d.doc}${d.env ? ` (env ${d.env})` : ''}`)
  ]
  return {
    $comment: comment,
    dir: options.dir,
    ...(options.apiUrl ? {apiUrl: options.apiUrl} : {}),
    rootTopic: options.rootTopic ?? null,
    concurrency: 8,
    prune: false,
    maxDeletions: 10,
    ignore: [],
    watch: {debounceMs: 300},
    preview: {port: 4400}
  }
}

/** The `.kbsyncignore` `init` writes. */
export const initialIgnore = `# .kbsyncignore: paths kbsync leaves alone (gitignore syntax), relative to this folder.
# Dot-entries (.git, .kbsync) and node_modules are always ignored.
# Examples:
# drafts/
# *.draft.md
*~
*.swp
*.tmp
`

/**
 * The ignore rule of the embedded knowledge base. Its data file and server
 * record are this machine's: committed, a record would tell the next clone
 * where "its" server is (a planted one is not believed, see
 * `trust/owner-record.ts`), and the data would travel with the repository.
 */
export const embeddedIgnoreRule = 'local-kb.json*'

/** The `.kbsync/.gitignore` `init` writes, or `existing` with the rule added (undefined: it has the rule already). */
export function kbsyncGitignore(existing: string | undefined): string | undefined {
  if (existing?.split(/\r?\n/).some((line) => line.trim() === embeddedIgnoreRule)) return undefined
  const comment =
    "# kbsync: the embedded local knowledge base (data, files, server record) is this machine's, never the repository's."
  const before = existing === undefined || existing === '' ? '' : existing.endsWith('\n') ? existing : `${existing}\n`
  return `${before}${comment}\n${embeddedIgnoreRule}\n`
}

export const initCommand: Command = {
  name: 'init',
  summary: commandSummary('init'),
  usage: 'kbsync init [--dir DIR] [--api-url URL] [--root-topic ID] [--force]',
  description: `Writes kbsync.config.json in the current folder (each key explained in its
"$comment": JSON has no comments), a .kbsyncignore in the synced folder, and
.kbsync/.gitignore there (the embedded knowledge base, local-kb.json*, is never
committed; an existing .kbsync/.gitignore gets the rule added).
The synced folder is docs/ when there is one, else the current folder.
Refuses to overwrite existing files without --force.

Options:
  --dir DIR        the folder to sync (default: docs/ if present, else .)
  --api-url URL    the platform's API (default: the embedded local knowledge base)
  --root-topic ID  the topic the folder maps to (default: the knowledge-base root)
  --force          overwrite existing files
  --quiet          only warnings and errors`,
  examples: ['kbsync init', 'kbsync init --dir handbook --api-url https://api.pyrus.com/v4', 'kbsync init --force'],
  options: {
    dir: {type: 'string'},
    'api-url': {type: 'string'},
    'root-topic': {type: 'string'},
    force: {type: 'boolean'},
    quiet: {type: 'boolean'}
  },
  async run(context: CommandContext) {
    const reporter = reporterFor(context)
    if (context.positionals.length > 0)
      throw new UsageError(`unexpected argument '${context.positionals[0]}'; use --dir to name the folder`)
    const explicitDir = typeof context.values.dir === 'string' ? context.values.dir : undefined
    const dir = explicitDir ?? ((await kind(path.join(context.cwd, 'docs'))) === 'dir' ? 'docs' : '.')
    const absoluteDir = path.resolve(context.cwd, dir)
    if ((await kind(absoluteDir)) !== 'dir') throw new UsageError(`the folder ${dir} does not exist`)
    const apiUrl = typeof context.values['api-url'] === 'string' ? context.values['api-url'] : undefined
    if (apiUrl !== undefined && !/^https?:\/\/[^@\s]+$/.test(apiUrl))
      throw new UsageError('--api-url must be an http(s) URL without credentials')
    const configFile = path.join(context.cwd, configFileNames[0])
    const ignoreFile = path.join(absoluteDir, '.kbsyncignore')
    const existing = []
    for (const file of [...configFileNames.map((n) => path.join(context.cwd, n)), ignoreFile])
      if (await kind(file)) existing.push(file)
    if (existing.length > 0 && context.values.force !== true) {
      throw new UsageError(
        `not overwriting ${existing.map((f) => path.relative(context.cwd, f)).join(', ')}: run kbsync init --force to replace`
      )
    }
    const relativeDir = path.relative(context.cwd, absoluteDir).split(path.sep).join('/') || '.'
    const rootTopic = typeof context.values['root-topic'] === 'string' ? context.values['root-topic'] : null
    // A cloned repository may hold these names as links to anywhere: both are checked before either is written, then written
    // as new files, never through a link that leaves its folder.
    const gitignore = path.join('.kbsync', '.gitignore')
    checkWritesInside(context.cwd, [configFileNames[0]])
    checkWritesInside(absoluteDir, [path.basename(ignoreFile), gitignore])
    const rules = kbsyncGitignore(await readFile(path.join(absoluteDir, gitignore), 'utf8').catch(() => undefined))
    writeFileInside(
      context.cwd,
      configFileNames[0],
      JSON.stringify(initialConfig({dir: relativeDir, ...(apiUrl ? {apiUrl} : {}), rootTopic}), null, 2) + '\n'
    )
    writeFileInside(absoluteDir, path.basename(ignoreFile), initialIgnore)
    if (rules !== undefined) writeFileInside(absoluteDir, gitignore, rules)
    const shownGitignore = path.relative(context.cwd, path.join(absoluteDir, gitignore))
    reporter.success(
      `Wrote ${path.relative(context.cwd, configFile)} (dir: ${relativeDir}) and ${path.relative(context.cwd, ignoreFile) || '.kbsyncignore'}` +
        `${rules !== undefined ? `; ${shownGitignore} keeps ${embeddedIgnoreRule} out of git` : ''}.`
    )
    reporter.info(
      `Next: kbsync plan, then kbsync push. Keep .kbsync/state.json and state.journal (commit them or cache them in CI; body-cache.json is worth caching too); never commit .kbsync/local-kb.json* (${shownGitignore} ignores it).`
    )
    return exitCodes.ok
  }
}
