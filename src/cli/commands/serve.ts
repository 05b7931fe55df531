/**
 * `kbsync serve`: the local knowledge-base server on loopback, persisted to
 * a file, optionally with injected latency, failures and a rate limit.
 */
import path from 'node:path'
import type {Command} from '../command.js'
import {listenError, parseNumber, parsePort, untilInterrupted} from '../args.js'
import {exitCodes} from '../exit-codes.js'
import {UsageError} from '../main.js'
import {localToken, startServer} from '../../server/index.js'

/** Parses `--rate-limit REQUESTS/SECONDS`. */
function parseRateLimit(value: unknown): {limit: number; windowSeconds: number} | undefined {
  if (typeof value !== 'string') return undefined
  const match = /^(\d+)\/(\d+)$/.exec(value)
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) {
    throw new UsageError(`--rate-limit takes REQUESTS/SECONDS, e.g. 5000/600, not '${value}'`)
  }
  return {limit: Number(match[1]), windowSeconds: Number(match[2])}
}

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '::1'])

export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the local knowledge-base server (the embedded default and test double)',
  usage: 'kbsync serve [--port N] [--data PATH] [--token T] [--latency MS] [--fail-rate R] [--rate-limit N/SECONDS] [--platform-habits] [--host H]',
  description: `Serves the platform's knowledge-base API on http://127.0.0.1:PORT/v4, persisted
to a JSON file, with a page listing the stored tree at http://127.0.0.1:PORT/.

Options:
  --port N              port (default 0: a free one)
  --data PATH           data file (default .kbsync/local-kb.json); --data :memory: keeps nothing
  --token T             the accepted bearer token (default the local token, printed)
  --latency MS          added to every request
  --fail-rate R         probability (0..1) that a request fails (500 or dropped connection)
  --rate-limit N/S      at most N requests per S seconds per user (default 5000/600)
  --platform-habits     store bodies as the platform gives them back (soft line breaks as trailing
                        backslashes, \\_, | --- | rows), to try round trips against them
  --host H              address to bind (default 127.0.0.1; anything else exposes the server and needs --token)
  --verbose             accepted like the other commands' flag; prints nothing more yet
`,
  examples: ['kbsync serve', 'kbsync serve --port 8080 --latency 20 --fail-rate 0.1', 'kbsync serve --data :memory: --rate-limit 100/10'],
  options: {
    port: {type: 'string'},
    data: {type: 'string'},
    token: {type: 'string'},
    latency: {type: 'string'},
    'fail-rate': {type: 'string'},
    'rate-limit': {type: 'string'},
    host: {type: 'string'},
    'platform-habits': {type: 'boolean'},
    verbose: {type: 'boolean'}
  },
  async run(context) {
    if (context.positionals.length > 0) throw new UsageError(`unexpected argument '${context.positionals[0]}'`)
    const data = typeof context.values.data === 'string' ? context.values.data : '.kbsync/local-kb.json'
    const givenToken = typeof context.values.token === 'string' ? context.values.token : undefined
    const host = typeof context.values.host === 'string' ? context.values.host : '127.0.0.1'
    // The built-in token is printed below and written in the docs: beyond loopback it would let anyone in.
    if (!loopbackHosts.has(host) && givenToken === undefined) {
      throw new UsageError(`--host ${host} exposes the server beyond this machine: give it a token of your own with --token`)
    }
    const port = parsePort(context.values.port) ?? 0
    const server = await startServer({
      port,
      host,
      dataPath: data === ':memory:' ? undefined : path.resolve(context.cwd, data),
      token: givenToken,
      latencyMs: parseNumber('latency', context.values.latency),
      failRate: parseNumber('fail-rate', context.values['fail-rate'], 1),
      rateLimit: parseRateLimit(context.values['rate-limit']),
      platformHabits: context.values['platform-habits'] === true
    }).catch((error: unknown) => {
      throw listenError(error, port)
    })
    context.stdout.write(`Local knowledge base at ${server.apiUrl} (browse: ${server.filesUrl}/)\n`)
    context.stdout.write(`Data: ${data === ':memory:' ? 'in memory' : data}\n`)
    // A token the user chose is a secret of theirs; the built-in one is not.
    context.stdout.write(givenToken ? 'Token: the one given with --token\n' : `Token: ${localToken} (the local default)\n`)
    await untilInterrupted()
    await server.close()
    return exitCodes.ok
  }
}
