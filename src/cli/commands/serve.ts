/**
 * `kbsync serve`: the local knowledge-base server on loopback, persisted to
 * a file, optionally with injected latency, failures and a rate limit; or
 * beyond loopback, with the operator's own token and login.
 */
import path from 'node:path'
import type {Command} from '../command.js'
import {commandSummary} from './catalog.js'
import {listenError, parseNumber, parsePort, untilInterrupted} from '../args.js'
import {exitCodes} from '../exit-codes.js'
import {UsageError} from '../errors.js'
import {serveOwned} from '../embedded/index.js'
import {
  decideAccess,
  describeHabits,
  ExposureError,
  localCredentials,
  localToken,
  startServer,
  type PlatformHabits
} from '../../server/index.js'

/** Parses `--rate-limit REQUESTS/SECONDS`. */
function parseRateLimit(value: unknown): {limit: number; windowSeconds: number} | undefined {
  if (typeof value !== 'string') return undefined
  const match = /^(\d+)\/(\d+)$/.exec(value)
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) {
    throw new UsageError(`--rate-limit takes REQUESTS/SECONDS, e.g. 5000/600, not '${value}'`)
  }
  return {limit: Number(match[1]), windowSeconds: Number(match[2])}
}

/** A value from its option, else from its environment variable (secrets are better kept off the command line, where `ps` shows them). */
function optionOrEnv(value: unknown, env: NodeJS.ProcessEnv, name: string): string | undefined {
  return typeof value === 'string' ? value : env[name]
}

/** Parses `--login-persons 1,7`: the person ids the login belongs to. */
function parsePersonIds(value: unknown): number[] | undefined {
  if (typeof value !== 'string') return undefined
  const ids = value.split(',').map((part) => part.trim())
  if (ids.some((id) => !/^\d{1,15}$/.test(id))) {
    throw new UsageError(`--login-persons takes person ids separated by commas, e.g. 1,7, not '${value}'`)
  }
  return ids.map(Number)
}

/** The platform habits asked for on the command line. */
function habitsOf(values: Record<string, unknown>): PlatformHabits {
  const bodies = values['platform-habits'] === true
  return {
    storeBodies: bodies,
    nestedFenceFails: bodies,
    dropOver: parseNumber('drop-over', values['drop-over']),
    loginPersonIds: parsePersonIds(values['login-persons'])
  }
}

/** Parses a size option given in MiB into bytes. */
function parseMiB(name: string, value: unknown): number | undefined {
  const mib = parseNumber(name, value)
  if (mib === undefined) return undefined
  if (mib === 0) throw new UsageError(`--${name} must be more than 0`)
  return Math.floor(mib * 1048576)
}

export const serveCommand: Command = {
  name: 'serve',
  summary: commandSummary('serve'),
  usage:
    'kbsync serve [--port N] [--data PATH] [--token T] [--login L --security-key K] [--latency MS] [--fail-rate R] [--rate-limit N/SECONDS] [--platform-habits] [--login-persons IDS] [--drop-over N] [--host H] [--allow-host NAMES] [--max-json-mb N] [--max-file-mb N]',
  description: `Serves the platform's knowledge-base API on http://127.0.0.1:PORT/v4, persisted
to a JSON file, with a page listing the stored tree at http://127.0.0.1:PORT/.

Options:
  --port N              port (default 0: a free one)
  --data PATH           data file (default .kbsync/local-kb.json); --data :memory: keeps nothing
  --token T             the accepted bearer token (default ${localToken}, on loopback only;
                        env KBSYNC_SERVE_TOKEN)
  --login L             the login POST /v4/auth and /api/v4/auth accept, with --security-key
                        (default ${localCredentials.login}, on loopback only; env KBSYNC_SERVE_LOGIN)
  --security-key K      its security key (default ${localCredentials.securityKey}, on loopback only;
                        env KBSYNC_SERVE_SECURITY_KEY)
  --latency MS          added to every request
  --fail-rate R         probability (0..1) that a request fails (500 or dropped connection)
  --rate-limit N/S      at most N requests per S seconds per user (default 5000/600)

Platform habits (each off unless asked; docs/server.md):
  --platform-habits     store bodies as the platform gives them back (soft line breaks as trailing
                        backslashes, \\_, | --- | rows), and answer 500 server_error to an article or
                        topic write whose body has a line of three backticks inside a fenced code block
  --login-persons IDS   the login belongs to these person ids (comma-separated, one per organisation):
                        with more than one, POST /auth without person_id answers 500 server_error;
                        a person_id not among them answers 401 invalid_credentials
  --drop-over N         drop connections (no answer) while more than N requests arrived within the
                        last second, dropped ones included, as the platform does in bursts

Exposure and limits:
  --host H              address to bind (default 127.0.0.1). Anything else exposes the server: it then needs
                        a token of your own, refuses the public local token and login, and accepts logins
                        only with --login and --security-key of your own
  --allow-host NAMES    host names (comma-separated) clients may address besides localhost, 127.0.0.0/8,
                        [::1] and --host, e.g. the machine's name with --host 0.0.0.0; others get 403
  --max-json-mb N       largest JSON request body in MiB (default 16); larger ones get 413
  --max-file-mb N       largest upload in MiB (default 256); larger ones get 413 too_large_file
  --verbose             accepted like the other commands' flag; prints nothing more yet
`,
  examples: [
    'kbsync serve',
    'kbsync serve --login me --security-key my-key',
    'kbsync serve --port 8080 --latency 20 --fail-rate 0.1',
    'kbsync serve --data :memory: --platform-habits --login-persons 1,7 --drop-over 20'
  ],
  options: {
    port: {type: 'string'},
    data: {type: 'string'},
    token: {type: 'string'},
    login: {type: 'string'},
    'security-key': {type: 'string'},
    'allow-host': {type: 'string'},
    'max-json-mb': {type: 'string'},
    'max-file-mb': {type: 'string'},
    latency: {type: 'string'},
    'fail-rate': {type: 'string'},
    'rate-limit': {type: 'string'},
    host: {type: 'string'},
    'platform-habits': {type: 'boolean'},
    'drop-over': {type: 'string'},
    'login-persons': {type: 'string'},
    verbose: {type: 'boolean'}
  },
  stopsGracefully: true,
  async run(context) {
    if (context.positionals.length > 0) throw new UsageError(`unexpected argument '${context.positionals[0]}'`)
    const data = typeof context.values.data === 'string' ? context.values.data : '.kbsync/local-kb.json'
    const given = {
      token: optionOrEnv(context.values.token, context.env, 'KBSYNC_SERVE_TOKEN'),
      login: optionOrEnv(context.values.login, context.env, 'KBSYNC_SERVE_LOGIN'),
      securityKey: optionOrEnv(context.values['security-key'], context.env, 'KBSYNC_SERVE_SECURITY_KEY')
    }
    const host = typeof context.values.host === 'string' ? context.values.host : '127.0.0.1'
    // The built-in token and login are printed below and written in the docs: beyond loopback they would let anyone in.
    let access: ReturnType<typeof decideAccess>
    try {
      access = decideAccess(host, given)
    } catch (error) {
      if (error instanceof ExposureError)
        throw new UsageError(
          `${error.message} (--token or KBSYNC_SERVE_TOKEN; --login and --security-key or KBSYNC_SERVE_LOGIN and KBSYNC_SERVE_SECURITY_KEY)`
        )
      throw error
    }
    const allowHost = typeof context.values['allow-host'] === 'string' ? context.values['allow-host'] : ''
    const port = parsePort(context.values.port) ?? 0
    const dataPath = data === ':memory:' ? undefined : path.resolve(context.cwd, data)
    const start = () =>
      startServer({
        port,
        host,
        allowedHosts: allowHost
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
        dataPath,
        ...given,
        limits: {
          jsonBytes: parseMiB('max-json-mb', context.values['max-json-mb']),
          fileBytes: parseMiB('max-file-mb', context.values['max-file-mb'])
        },
        latencyMs: parseNumber('latency', context.values.latency),
        failRate: parseNumber('fail-rate', context.values['fail-rate'], 1),
        rateLimit: parseRateLimit(context.values['rate-limit']),
        platformHabits: habitsOf(context.values)
      }).catch((error: unknown) => {
        throw listenError(error, port)
      })
    // One server per data file (issue 18): a file another kbsync process serves is left to it, and that process is named.
    const server = dataPath === undefined ? await start() : await serveOwned(dataPath, start)
    context.stdout.write(`Local knowledge base at ${server.apiUrl} (browse: ${server.filesUrl}/)\n`)
    context.stdout.write(`Data: ${data === ':memory:' ? 'in memory' : data}\n`)
    // A token or key the user chose is a secret of theirs; the built-in ones are not.
    context.stdout.write(
      given.token !== undefined ? 'Token: the one given\n' : `Token: ${localToken} (the local default)\n`
    )
    const logins = !access.credentials
      ? 'refused (no --login and --security-key given)'
      : given.login !== undefined
        ? 'with the login and security key given'
        : `${localCredentials.login} / ${localCredentials.securityKey} (the local default)`
    context.stdout.write(`Logins (POST /v4/auth): ${logins}\n`)
    const habits = describeHabits(server.habits)
    if (habits.length > 0) context.stdout.write(`Platform habits: ${habits.join('; ')}\n`)
    await untilInterrupted(context.shutdown)
    await server.close()
    return exitCodes.ok
  }
}
