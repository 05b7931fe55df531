/**
 * `kbsync preview [DIR] [--port N] [--open]`: serves the folder's articles
 * as the platform will show them, with live reload, until interrupted.
 */
import type {Command, CommandContext} from '../command.js'
import {commandSummary} from './catalog.js'
import {exitCodes} from '../exit-codes.js'
import {UsageError} from '../errors.js'
import {listenError, untilInterrupted} from '../args.js'
import {loadConfig} from '../config.js'
import {checkFolders, linkOptionsOf} from '../session.js'
import {formatDiagnostic} from '../output/index.js'
import {guardedStream} from '../output/guarded-stream.js'
import type {Diagnostic} from '../../local/index.js'
import {plural} from '../../local/diagnostic-groups.js'
import {
  openBrowser,
  startPreview,
  type PreviewScanOptions,
  type PreviewServer,
  type RefreshInfo
} from '../../preview/index.js'

/** The port used when `--port` is not given (a free one is taken when it is busy). */
const defaultPort = 4400

async function start(
  dir: string,
  port: number | undefined,
  scan: PreviewScanOptions,
  context: CommandContext
): Promise<PreviewServer> {
  const onRefresh = (info: RefreshInfo) => {
    const what = info.paths.length > 0 ? info.paths.join(', ') : 'folder'
    const done =
      info.documents !== undefined
        ? `checked all ${plural(info.documents, 'article')} (${info.ms} ms)`
        : `updated ${what} (${info.ms} ms)`
    guardedStream(context.stdout, context.env).write(
      info.error ? `could not read the folder: ${info.error.message}\n` : `${done}\n`
    )
  }
  const onWarnings = (diagnostics: Diagnostic[]) =>
    guardedStream(context.stderr, context.env).write(diagnostics.map((d) => formatDiagnostic(d) + '\n').join(''))
  try {
    return await startPreview({dir, port: port ?? defaultPort, onRefresh, onWarnings, scan})
  } catch (error) {
    // The default port is only a preference; an explicit one is not.
    if ((error as {code?: string}).code === 'EADDRINUSE' && port === undefined)
      return startPreview({dir, port: 0, onRefresh, onWarnings, scan})
    throw listenError(error, port ?? defaultPort)
  }
}

export const previewCommand: Command = {
  name: 'preview',
  summary: commandSummary('preview'),
  usage: 'kbsync preview [DIR] [--port N] [--open]',
  description: `Serves DIR (default: the configured folder, else the current one) on http://127.0.0.1:PORT/: the tree of
topics and articles as navigation, each article rendered the way the platform's
article view shows it (hint blocks and highlights in their colours, details,
attachment groups, diagrams, videos, sized images from the folder), with the
problems plan would report listed per article. Saving a file updates the open
page within a second, without reloading it. Runs until interrupted (Ctrl+C).

Options:
  --port N       port on 127.0.0.1 (default ${defaultPort}, or a free one when it is busy; 0 picks a free one);
                 also preview.port in the config file or KBSYNC_PREVIEW_PORT
  --open         open the page in the default browser
  --dir DIR      the folder (the same as the DIR argument; default: "dir" of the config file, else the current folder)
  --config FILE  use this config file instead of searching for one
`,
  examples: ['kbsync preview docs', 'kbsync preview docs --port 8080 --open'],
  options: {
    port: {type: 'string'},
    open: {type: 'boolean'},
    config: {type: 'string'},
    dir: {type: 'string'}
  },
  stopsGracefully: true,
  async run(context) {
    if (context.positionals.length > 1)
      throw new UsageError(`expected at most one folder, not ${context.positionals.length}`)
    const positional = context.positionals[0]
    // The folder and the port as every command reads them: DIR or --dir, then KBSYNC_*, then the config file.
    const config = await loadConfig({
      cwd: context.cwd,
      env: context.env,
      flags: context.values,
      withoutSecrets: true,
      ...(positional ? {dir: positional} : {})
    })
    await checkFolders(config)
    // The default port is only a preference (a free one when it is busy); a configured one is not.
    const port = config.sources['preview.port'] === 'default' ? undefined : config.preview.port
    const dir = config.dir
    // Pages and problems as plan has them: the config's ignore patterns and link options.
    const server = await start(dir, port, {ignore: config.ignore, links: linkOptionsOf(config)}, context)
    guardedStream(context.stdout, context.env).write(`Preview of ${dir} at ${server.url} (Ctrl+C to stop)\n`)
    if (context.values.open === true) {
      const problem = await openBrowser(server.url)
      if (problem)
        guardedStream(context.stderr, context.env).write(`kbsync preview: ${problem}; open ${server.url} yourself\n`)
    }
    await untilInterrupted(context.shutdown)
    await server.close()
    return exitCodes.ok
  }
}
