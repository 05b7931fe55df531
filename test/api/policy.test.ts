import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {redact} from '../../src/api/redact.js'
import {formatClientEvent} from '../../src/api/events.js'
import {RateLimiter, Semaphore} from '../../src/api/limiter.js'
import {resolveOptions, optionsFromEnv} from '../../src/api/options.js'
import {backoffMs, isRetryableStatus, parseRetryAfter, serverWaitMs} from '../../src/api/retry-policy.js'
import {isTitleHeading, withoutTitleHeading} from '../../src/api/title-heading.js'
import {KbClient} from '../../src/api/index.js'
import {comparableBody, showsUpdate, updatePayload} from '../../src/api/writes.js'

describe('backoff', () => {
  it('stays within [0, min(cap, base * 2^(attempt-1))) for any attempt and random draw', () => {
    fc.assert(
      fc.property(
        fc.integer({min: 1, max: 40}),
        fc.integer({min: 1, max: 5000}),
        fc.integer({min: 0, max: 60_000}),
        fc.double({min: 0, max: 0.999999, noNaN: true}),
        (attempt, base, cap, r) => {
          const wait = backoffMs(attempt, base, cap, () => r)
          const ceiling = Math.min(cap, base * 2 ** (attempt - 1))
          return wait >= 0 && (ceiling === 0 ? wait === 0 : wait < ceiling)
        }
      )
    )
  })

  it('grows with the attempt number until the cap', () => {
    expect(backoffMs(1, 100, 10_000, () => 0.999)).toBe(99)
    expect(backoffMs(4, 100, 10_000, () => 0.999)).toBe(799)
    expect(backoffMs(20, 100, 10_000, () => 0.999)).toBe(9990)
  })

  it('retries 5xx except 501', () => {
    expect([500, 502, 503, 504].every(isRetryableStatus)).toBe(true)
    expect(isRetryableStatus(501)).toBe(false)
    expect(isRetryableStatus(404)).toBe(false)
  })
})

describe('Retry-After and X-RateLimit-Reset', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3000)
    expect(parseRetryAfter(' 0 ')).toBe(0)
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:07 GMT', now)).toBe(7000)
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0)
    expect(parseRetryAfter('soon')).toBeUndefined()
    expect(parseRetryAfter(undefined)).toBeUndefined()
  })

  it('prefers Retry-After, falls back to X-RateLimit-Reset', () => {
    expect(serverWaitMs({'retry-after': '2', 'x-ratelimit-reset': '50'})).toBe(2000)
    expect(serverWaitMs({'x-ratelimit-reset': '5'})).toBe(5000)
    expect(serverWaitMs({})).toBeUndefined()
  })
})

describe('rate limiter', () => {
  it('does not wait while the budget is ample', () => {
    const now = 0
    const limiter = new RateLimiter(4, () => now)
    limiter.observe({'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '4000', 'x-ratelimit-reset': '600'})
    for (let i = 0; i < 100; i++) expect(limiter.reserve()).toBe(0)
  })

  it('spaces requests so a low budget lasts until the reset', () => {
    let now = 0
    const limiter = new RateLimiter(2, () => now)
    limiter.observe({'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '4', 'x-ratelimit-reset': '8'})
    const waits = [limiter.reserve(), limiter.reserve(), limiter.reserve(), limiter.reserve()]
    expect(waits[0]).toBe(0)
    expect(waits[1]).toBe(2000)
    expect(waits[3]).toBeGreaterThan(waits[2]!)
    // Budget gone: the next one waits for the reset.
    expect(limiter.reserve()).toBeGreaterThanOrEqual(8000)
    now = 9000
    expect(limiter.reserve()).toBe(0)
  })

  it('keeps the lowest remaining count of an interval (answers arrive out of order)', () => {
    const now = 0
    const limiter = new RateLimiter(1, () => now)
    limiter.observe({'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '5'})
    limiter.observe({'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '5'})
    expect(limiter.reserve()).toBeGreaterThanOrEqual(5000)
  })

  it('semaphore admits at most its size', async () => {
    const gate = new Semaphore(2)
    const a = await gate.acquire()
    await gate.acquire()
    let third = false
    const pending = gate.acquire().then(() => (third = true))
    await new Promise((r) => setTimeout(r, 5))
    expect(third).toBe(false)
    a()
    a() // releasing twice frees one slot only
    await pending
    expect(third).toBe(true)
  })
})

describe('options', () => {
  it('applies defaults and strips trailing slashes', () => {
    const o = resolveOptions({token: 't0ken'})
    expect(o.apiUrl).toBe('https://api.pyrus.com/v4')
    expect(o.filesUrl).toBe('https://files.pyrus.com')
    expect(o.accountsUrl).toBe('https://accounts.pyrus.com/api/v4')
    expect([o.concurrency, o.timeoutMs, o.uploadTimeoutMs, o.retries, o.maxRetryWaitMs, o.maxRateLimitWaitMs]).toEqual([
      8, 30_000, 600_000, 5, 30_000, 660_000
    ])
    const local = resolveOptions({apiUrl: 'http://127.0.0.1:9/v4//', login: 'l', securityKey: 'k'})
    expect(local.apiUrl).toBe('http://127.0.0.1:9/v4')
    expect(local.filesUrl).toBeUndefined()
    expect(local.accountsUrl).toBe('http://127.0.0.1:9/v4')
  })

  it('refuses to start without credentials, naming the variables but no value', () => {
    expect(() => resolveOptions({apiUrl: 'http://x/v4'})).toThrow(/KBSYNC_TOKEN.*KBSYNC_LOGIN/)
    expect(() => resolveOptions({token: 'secret-token-1', concurrency: 0})).toThrow(/concurrency/)
    try {
      resolveOptions({token: 'secret-token-1', retries: -1})
    } catch (error) {
      expect(String(error)).not.toContain('secret-token-1')
    }
  })

  it('reads the environment', () => {
    expect(
      optionsFromEnv({
        KBSYNC_API_URL: 'http://h/v4',
        KBSYNC_FILES_URL: 'http://f',
        KBSYNC_TOKEN: 'T',
        KBSYNC_LOGIN: 'L',
        KBSYNC_SECURITY_KEY: 'K',
        KBSYNC_PERSON_ID: '7'
      })
    ).toEqual({
      apiUrl: 'http://h/v4',
      filesUrl: 'http://f',
      accountsUrl: undefined,
      token: 'T',
      login: 'L',
      securityKey: 'K',
      personId: 7
    })
  })
})

describe('update payload and read-back comparison', () => {
  it('never sends parent_topic_id without parent_topic_id_changed', () => {
    expect(updatePayload({body: 'b', parent_topic_id: 'X'})).toEqual({body: 'b'})
    expect(updatePayload({title: 't', parent_topic_id_changed: true})).toEqual({
      title: 't',
      parent_topic_id: null,
      parent_topic_id_changed: true
    })
    expect(updatePayload({parent_topic_id: 'P', parent_topic_id_changed: true})).toEqual({
      parent_topic_id: 'P',
      parent_topic_id_changed: true
    })
  })

  it('sees a body the platform returned (title heading, file URLs) as the one sent', () => {
    const guid = '0f9b2c1e-1111-4222-8333-444455556666'
    const sent = `Intro\n\n![pic](${guid})\n`
    const returned = `# My title\n\nIntro\n\n![pic](https://files.example/services/kb?Id=${guid})`
    expect(comparableBody(returned, 'My title')).toBe(comparableBody(sent))
    const item = {
      id: 'A',
      title: 'My title',
      type: 'article' as const,
      body: returned,
      parent_topic_id: 'P',
      created_at: '',
      updated_at: '',
      version: 2
    }
    expect(showsUpdate(item, {body: sent})).toBe(true)
    expect(showsUpdate(item, {body: 'Other'})).toBe(false)
    expect(showsUpdate(item, {title: 'My title', parent_topic_id: 'Q', parent_topic_id_changed: true})).toBe(false)
    expect(showsUpdate(item, {title: 'My title', parent_topic_id: 'Q'})).toBe(true)
  })
})

describe('a client misused as a library', () => {
  it('refuses a URL that is not http(s), closes twice quietly, and fails at once after close', async () => {
    expect(() => new KbClient({apiUrl: 'nota url', token: 't'})).toThrow(/apiUrl must be an http\(s\) URL/)
    expect(() => new KbClient({apiUrl: 'https://h/v4', filesUrl: 'ftp://f', token: 't'})).toThrow(/filesUrl/)
    const client = new KbClient({apiUrl: 'http://127.0.0.1:9/v4', token: 't'})
    await client.close()
    await client.close()
    const started = Date.now()
    await expect(client.getTree()).rejects.toMatchObject({errorCode: 'client_closed', retryable: false})
    expect(Date.now() - started).toBeLessThan(200)
  })
})

describe('the title heading of a returned body', () => {
  it('is recognised with the escapes the platform writes, and only the title heading', () => {
    expect(isTitleHeading('# snake\\_case rules', 'snake_case rules')).toBe(true)
    expect(isTitleHeading('# a \\*b\\* c ', ' a *b* c')).toBe(true)
    expect(isTitleHeading('# a\\_b', 'a\\_b')).toBe(true)
    expect(isTitleHeading('## snake\\_case rules', 'snake_case rules')).toBe(false)
    expect(isTitleHeading('# snake case rules', 'snake_case rules')).toBe(false)
  })

  it('is stripped with the blank lines after it, whatever the line ends', () => {
    expect(withoutTitleHeading('# snake\\_case\r\n\r\nBody\r\n', 'snake_case')).toBe('Body\n')
    expect(withoutTitleHeading('# T', 'T')).toBe('')
    expect(withoutTitleHeading('# Other\n\nBody', 'T')).toBe('# Other\n\nBody')
    expect(comparableBody('# snake\\_case\n\nBody\n', 'snake_case')).toBe(comparableBody('Body'))
  })
})

describe('redaction and event lines', () => {
  it('removes secrets and bearer values', () => {
    const text = redact(
      'token abcd1234 sent as Authorization: Bearer abcd1234 and {"authorization":"Bearer zzzz9999"}',
      ['abcd1234']
    )
    expect(text).not.toContain('abcd1234')
    expect(text).not.toContain('zzzz9999')
  })

  it('formats events without secrets', () => {
    expect(
      formatClientEvent({
        type: 'retry',
        method: 'PUT',
        path: '/knowledgebase/A1',
        attempt: 2,
        status: 500,
        errorCode: 'server_error',
        waitMs: 120
      })
    ).toBe('api: retry PUT /knowledgebase/A1 (attempt 2, 500 server_error) in 120 ms')
  })
})
