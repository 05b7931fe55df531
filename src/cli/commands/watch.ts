/**
 * `kbsync watch [DIR]`: pushes each saved change, debounced and coalesced,
 * until Ctrl-C; then waits for a running push (the state is saved as each
 * step lands) and closes the connection.
 */
import type {Command, CommandContext} from '../command.js'
import {loadConfig} from '../config.js'
import {connect} from '../connect.js'
import {exitCodes} from '../exit-codes.js'
import {reporterFor} from '../output/index.js'
import {startWatchSession} from '../watch/index.js'
import {push} from '../../sync/index.js'
import {formatClientEvent} from '../../api/index.js'

/** Resolves on the first SIGINT or SIGTERM (the CLI's way to stop a long-running command). */
function stopSignal(): {promise: Promise<string>; dispose(): void} {
  let resolve!: (signal: string) => void
  const promise = new Promise<string>((r) => (resolve = r))
  const onSignal = (signal: string) => resolve(signal)
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  return {
    promise,
    dispose() {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    }
  }
}

export const watchCommand: Command = {
  name: 'watch',
  summary: 'push each saved change until Ctrl-C',
  usage: 'kbsync watch [DIR] [--debounce MS] [--prune] [--root-topic ID] [--quiet] [--verbose]',
  description: `Pushes DIR (default: the configured dir, else the current folder) once, then
watches it and pushes every change: saves, new files, renames, moves and
deletions of files and folders. Bursts (a git checkout, a save-all) are pushed
as one batch once the folder has been quiet for --debounce milliseconds
(default 300); a file still being written is waited for. Errors are reported
and watching goes on: invalid input waits for the next save, a failed push
is retried after a backoff. Ctrl-C stops after the running push.

Options:
  --debounce MS    quiet time before a burst is pushed (config watch.debounceMs)
  --prune          mirror deletions (delete remote items kbsync created)
  --yes            confirm a batch with more deletions than maxDeletions
  --root-topic ID  the topic the folder maps to
  --config FILE    use this config file instead of searching for one
  --api-url URL    the platform's API (default: the embedded local knowledge base)
  --token-file F   read the access token from file F
  --concurrency N  parallel requests (default 8)
  --max-deletions N  deletions allowed without --yes (default 10)
  --quiet          only the status line, warnings and errors
  --verbose        also client retries and waits`,
  examples: ['kbsync watch docs', 'kbsync watch docs --prune --debounce 500'],
  options: {
    debounce: {type: 'string'},
    prune: {type: 'boolean'},
    yes: {type: 'boolean'},
    'root-topic': {type: 'string'},
    config: {type: 'string'},
    'api-url': {type: 'string'},
    'token-file': {type: 'string'},
    concurrency: {type: 'string'},
    'max-deletions': {type: 'string'},
    quiet: {type: 'boolean'},
    verbose: {type: 'boolean'}
  },
  async run(context: CommandContext) {
    const positional = context.positionals[0]
    const config = await loadConfig({cwd: context.cwd, env: context.env, flags: context.values, ...(positional ? {dir: positional} : {})})
    const reporter = reporterFor(context, {dir: config.dir, secrets: [config.token, config.securityKey]})
    const connection = await connect(config, {cwd: context.cwd, onEvent: (e) => reporter.debug(formatClientEvent(e))})
    const signal = stopSignal()
    try {
      reporter.info(`Watching ${config.dir} -> ${connection.description}, root ${config.rootTopic ?? '(knowledge-base root)'} (Ctrl-C to stop)`)
      const session = await startWatchSession({
        dir: config.dir,
        debounceMs: config.watch.debounceMs,
        ignore: config.ignore,
        reporter,
        push: (onEvent) =>
          push({
            dir: config.dir,
            client: connection.client,
            rootTopicId: config.rootTopic,
            prune: config.prune,
            yes: context.values.yes === true,
            maxDeletions: config.maxDeletions,
            concurrency: config.concurrency,
            onEvent
          })
      })
      const received = await signal.promise
      reporter.status('')
      reporter.info(`Stopping (${received}): finishing the running push…`)
      await session.close()
      reporter.info('Stopped; the sync state is saved.')
      return exitCodes.ok
    } finally {
      signal.dispose()
      await connection.close()
    }
  }
}
