/**
 * A small local server that speaks the GitHub REST routes `pull --pull-request`
 * uses (the repository, listing, opening and updating pull requests) for one
 * repository, recording every call. A request without the expected token is
 * answered 401, as GitHub would; `failNext` makes the next calls fail first.
 */
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'

/** One recorded call. */
export interface RecordedCall {
  method: string
  path: string
  query: Record<string, string>
  authorization: string | undefined
  body: unknown
}

/** A pull request the server holds. */
export interface FakePull {
  number: number
  state: 'open' | 'closed'
  title: string
  body: string
  head: string
  base: string
}

/** The fake GitHub, started. */
export interface FakeGitHub {
  url: string
  calls: RecordedCall[]
  pulls: FakePull[]
  /** Answers the next calls with these statuses (then normally); `lose: true` applies the call and drops the answer. */
  failNext(...answers: Array<{status?: number; lose?: boolean; headers?: Record<string, string>}>): void
  /** The calls that write (POST, PATCH). */
  writes(): RecordedCall[]
  close(): Promise<void>
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  let text = ''
  for await (const chunk of request) text += String(chunk)
  return text === '' ? undefined : (JSON.parse(text) as unknown)
}

function send(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, {'content-type': 'application/json', ...headers})
  response.end(JSON.stringify(value))
}

/**
 * Starts the server for `owner/repo`, expecting `token`; `headSha(branch)`
 * gives a branch's commit (read from the bare repository) for answers.
 */
export async function startFakeGitHub(options: {
  owner: string
  repo: string
  token: string
  headSha(branch: string): string
}): Promise<FakeGitHub> {
  const calls: RecordedCall[] = []
  const pulls: FakePull[] = []
  const failures: Array<{status?: number; lose?: boolean; headers?: Record<string, string>}> = []
  const prefix = `/repos/${options.owner}/${options.repo}`
  const shown = (pull: FakePull) => ({
    number: pull.number,
    state: pull.state,
    title: pull.title,
    body: pull.body,
    html_url: `https://github.example/${options.owner}/${options.repo}/pull/${pull.number}`,
    head: {ref: pull.head, sha: options.headSha(pull.head), label: `${options.owner}:${pull.head}`},
    base: {ref: pull.base}
  })
  const route = (call: RecordedCall): {status: number; value: unknown} => {
    if (call.authorization !== `Bearer ${options.token}`) return {status: 401, value: {message: 'Bad credentials'}}
    if (call.method === 'GET' && call.path === prefix) return {status: 200, value: {default_branch: 'main'}}
    if (call.method === 'GET' && call.path === `${prefix}/pulls`) {
      const head = call.query.head ?? ''
      const state = call.query.state ?? 'open'
      const found = pulls.filter((p) => `${options.owner}:${p.head}` === head && (state === 'all' || p.state === state))
      return {status: 200, value: found.map(shown)}
    }
    if (call.method === 'POST' && call.path === `${prefix}/pulls`) {
      const input = call.body as {title: string; body: string; head: string; base: string}
      if (pulls.some((p) => p.head === input.head && p.state === 'open'))
        return {status: 422, value: {message: 'Validation Failed: A pull request already exists'}}
      const pull: FakePull = {number: pulls.length + 1, state: 'open', ...input}
      pulls.push(pull)
      return {status: 201, value: shown(pull)}
    }
    const patch = new RegExp(`^${prefix}/pulls/(\\d+)$`).exec(call.path)
    if (call.method === 'PATCH' && patch) {
      const pull = pulls.find((p) => p.number === Number(patch[1]))
      if (!pull) return {status: 404, value: {message: 'Not Found'}}
      Object.assign(pull, call.body as object)
      return {status: 200, value: shown(pull)}
    }
    return {status: 404, value: {message: 'Not Found'}}
  }
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost')
      const call: RecordedCall = {
        method: request.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        authorization: request.headers.authorization,
        body: await readBody(request)
      }
      calls.push(call)
      const failure = failures.shift()
      if (failure?.status !== undefined) return send(response, failure.status, {message: 'failing'}, failure.headers)
      const answer = route(call)
      if (failure?.lose) return response.destroy()
      send(response, answer.status, answer.value)
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    pulls,
    failNext: (...answers) => failures.push(...answers),
    writes: () => calls.filter((c) => c.method === 'POST' || c.method === 'PATCH'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
