/**
 * `connect` hands the client every credential and login option the config
 * holds, and long rate-limit waits are announced once per reset.
 */
import {afterEach, describe, expect, it} from 'vitest'
import {connect} from '../../src/cli/connect.js'
import {loadConfig} from '../../src/cli/config.js'
import {rateLimitNotices} from '../../src/cli/rate-limit-notice.js'
import {json, tinyServer, type Tiny} from '../api/tiny-server.js'

let server: Tiny | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('connect', () => {
  it('with a token and a login, an expired token is renewed by logging in (with person_id) and the call goes through', async () => {
    server = await tinyServer((req, res) => {
      if (req.url === '/v4/auth') return json(res, 200, {access_token: 'fresh', api_url: `${server!.url}/v4`})
      if (req.headers.authorization !== 'Bearer fresh')
        return json(res, 401, {error_code: 'expired_token', error: 'expired'})
      json(res, 200, {parent_topic_id: null, depth: 10, items: []})
    })
    const env = {
      KBSYNC_API_URL: `${server.url}/v4`,
      KBSYNC_TOKEN: 'stale',
      KBSYNC_LOGIN: 'bot@example.com',
      KBSYNC_SECURITY_KEY: 'key',
      KBSYNC_PERSON_ID: '7'
    }
    const config = await loadConfig({cwd: process.cwd(), env})
    const connection = await connect(config)
    try {
      expect(await connection.client.getTree()).toEqual([])
    } finally {
      await connection.close()
    }
    expect(server.seen.map((s) => s.url)).toEqual([
      '/v4/knowledgebase/structure?depth=10',
      '/v4/auth',
      '/v4/knowledgebase/structure?depth=10'
    ])
    expect(JSON.parse(server.seen[1]!.body.toString())).toEqual({
      login: 'bot@example.com',
      security_key: 'key',
      person_id: 7
    })
  })

  it('logs in at the configured accounts URL', async () => {
    server = await tinyServer((req, res) => {
      if (req.url === '/accounts/auth') return json(res, 200, {access_token: 'fresh'})
      json(res, 200, {parent_topic_id: null, depth: 10, items: []})
    })
    const env = {
      KBSYNC_API_URL: `${server.url}/v4`,
      KBSYNC_ACCOUNTS_URL: `${server.url}/accounts`,
      KBSYNC_LOGIN: 'bot@example.com',
      KBSYNC_SECURITY_KEY: 'key'
    }
    const connection = await connect(await loadConfig({cwd: process.cwd(), env}))
    try {
      await connection.client.getTree()
    } finally {
      await connection.close()
    }
    expect(server.seen.map((s) => s.url)).toEqual(['/accounts/auth', '/v4/knowledgebase/structure?depth=10'])
  })
})

/** A notice handler on a clock the test sets (`clock.now`), with the lines it said. */
function noticesAt(clock: {now: number}) {
  const lines: string[] = []
  return {
    lines,
    notice: rateLimitNotices(
      (line) => lines.push(line),
      () => clock.now
    )
  }
}

describe('rateLimitNotices', () => {
  it('says a long wait once for all the requests held by the same reset, and says nothing of short waits or failures', () => {
    const clock = {now: 0}
    const {lines, notice} = noticesAt(clock)
    notice({type: 'retry', method: 'GET', path: '/a', status: 500, waitMs: 20_000})
    notice({type: 'retry', method: 'GET', path: '/a', status: 429, waitMs: 2000})
    expect(lines).toEqual([])
    notice({type: 'retry', method: 'GET', path: '/a', status: 429, waitMs: 120_000})
    clock.now = 50
    notice({type: 'rate-limit-wait', method: 'PUT', path: '/b', waitMs: 119_960})
    expect(lines).toEqual(["rate limit reached: waiting 120 s for the server's next interval"])
    clock.now = 121_000
    notice({type: 'rate-limit-wait', method: 'PUT', path: '/b', waitMs: 30_000})
    expect(lines).toHaveLength(2)
  })

  it('says the waits of requests spaced out before a reset once per wait said, not once per request', () => {
    const clock = {now: 0}
    const {lines, notice} = noticesAt(clock)
    // Each request a second after the one before, each waiting two seconds longer (the limiter spacing them out).
    for (let i = 0; i < 30; i++) {
      clock.now = i * 1000
      notice({type: 'rate-limit-wait', method: 'POST', path: '/c', waitMs: 7000 + 2000 * i})
    }
    // Said at 0 s (7 s), then at 7 s (21 s), then at 28 s (63 s).
    expect(lines).toEqual([
      "rate limit reached: waiting 7 s for the server's next interval",
      "rate limit reached: waiting 21 s for the server's next interval",
      "rate limit reached: waiting 63 s for the server's next interval"
    ])
    clock.now = 29_000
    notice({type: 'retry', method: 'POST', path: '/c', status: 429, waitMs: 600_000})
    expect(lines.at(-1)).toBe("rate limit reached: waiting 600 s for the server's next interval")
  })
})
