/**
 * `kbsync watch [DIR]`: pushes each saved change, debounced and coalesced,
 * until Ctrl-C; then waits for a running push (the state is saved as each
 * step lands) and closes the connection.
 */
import type {Command, CommandContext} from '../command.js'
import {commandSummary} from './catalog.js'
import {exitCodes} from '../exit-codes.js'
import {untilInterrupted} from '../args.js'
import {
  connectionOptions,
  connectionOptionsHelp,
  linkOptionsOf,
  localeChoiceOf,
  openSession,
  pushOptionsOf
} from '../session.js'
import {startWatchSession} from '../watch/index.js'
import {createRescanner} from '../../local/rescan.js'
import {push} from '../../sync/index.js'
import type {PlanPushOptions} from '../../sync/push/prepare.js'

export const watchCommand: Command = {
  name: 'watch',
  summary: commandSummary('watch'),
  usage:
    'kbsync watch [DIR] [--debounce MS] [--prune | --on-orphan MODE] [--yes] [--max-warnings N] [--root-topic ID] [--quiet|--verbose]',
  description: `Pushes DIR (default: the configured dir, else the current folder) once, then
watches it and pushes every change: saves, new files, renames, moves and
deletions of files and folders. Bursts (a git checkout, a save-all) are pushed
as one batch once the folder has been quiet for --debounce milliseconds
(default 300); a file still being written is waited for. Errors are reported
and watching goes on: invalid input waits for the next save, a failed push
is retried after a backoff. Ctrl-C stops after the running push. The first
push shows the folder's messages grouped by rule; each later one the result
and the messages of the files just saved (and every error).

Options:
  --debounce MS    quiet time before a burst is pushed (config watch.debounceMs)
  --prune          mirror deletions (delete remote items kbsync created)
  --on-orphan MODE keep (default), delete (as --prune) or archive (move them under the archive topic)
  --yes            confirm a batch with more deletions than maxDeletions
  --broken-links warn|error  a link or image whose target does not exist: publish its text with a warning, or stop (default; config brokenLinks)
  --locale CODE      publish only this locale of a docs site (Starlight, Docusaurus, Hugo), as the whole folder (config locale)
  --max-warnings N do not push while there are more than N warnings (config maxWarnings)

${connectionOptionsHelp}
(With --quiet, watch still draws its status line on a terminal.)`,
  examples: ['kbsync watch docs', 'kbsync watch docs --prune --debounce 500'],
  options: {
    debounce: {type: 'string'},
    'broken-links': {type: 'string'},
    locale: {type: 'string'},
    prune: {type: 'boolean'},
    'on-orphan': {type: 'string'},
    yes: {type: 'boolean'},
    'max-warnings': {type: 'string'},
    ...connectionOptions
  },
  stopsGracefully: true,
  async run(context: CommandContext) {
    const sync = await openSession(context)
    const {config, reporter, target: connection} = sync
    // The stop also cuts a running push short (`sync.signal`): what it wrote is recorded, the next start finishes it.
    const stopped = untilInterrupted(context.shutdown)
    try {
      // Each push scans at the cost of what was saved: unchanged files' reads and conversions are kept.
      const rescanner = createRescanner(config.dir, {
        ignore: config.ignore,
        links: linkOptionsOf(config),
        locales: localeChoiceOf(config)
      })
      reporter.info(
        `Watching ${config.dir} -> ${connection.description}, root ${config.rootTopic ?? '(knowledge-base root)'} (Ctrl-C to stop)`
      )
      const session = await startWatchSession({
        dir: config.dir,
        debounceMs: config.watch.debounceMs,
        ignore: config.ignore,
        reporter,
        push: (onEvent, changed) => {
          const options: PlanPushOptions = {
            ...pushOptionsOf(sync, {yes: context.values.yes === true, onEvent}),
            scan: () => rescanner.scan(changed)
          }
          return push(options)
        }
      })
      const received = await stopped
      reporter.status('')
      reporter.info(`Stopping (${received})…`)
      await session.close()
      reporter.info('Stopped; the sync state is saved.')
      return exitCodes.ok
    } finally {
      await connection.close()
    }
  }
}
