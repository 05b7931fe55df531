import {describe, expect, it} from 'vitest'
import {NetworkError, safeCause} from '../../src/api/errors.js'
import {redact} from '../../src/api/redact.js'
import {redact as cliRedact, redactConfig} from '../../src/cli/config.js'

describe('redact: the one secret-masking function', () => {
  it('masks a token and a security key wherever they appear', () => {
    const text = redact('token tok-12345678 and key key-abcdefgh in "tok-12345678"', ['tok-12345678', 'key-abcdefgh'])
    expect(text).toBe('token [redacted] and key [redacted] in "[redacted]"')
  })

  it('masks a longer secret whole when a shorter one is part of it', () => {
    expect(redact('secret abcd1234wxyz', ['abcd', 'abcd1234wxyz'])).toBe('secret [redacted]')
  })

  it('ignores missing and too short secrets rather than masking ordinary words', () => {
    expect(redact('a bc of the text', [undefined, '', 'bc', 'of'])).toBe('a bc of the text')
  })

  it('masks the password of a URL, whoever wrote it', () => {
    expect(redact('GET https://bot:s3cret-pw@kb.example/api failed')).toBe(
      'GET https://bot:[redacted]@kb.example/api failed'
    )
    expect(redact('proxy http://u:p@10.0.0.1:8080 refused')).toBe('proxy http://u:[redacted]@10.0.0.1:8080 refused')
  })

  it('masks an Authorization header and a Bearer value even when the secret is not known', () => {
    expect(redact('headers: {"authorization":"Bearer zz-unknown-99"}')).toBe('headers: {"authorization":"[redacted]"}')
    expect(redact('Authorization: Basic dXNlcjpwYXNz')).toBe('Authorization: [redacted]')
    expect(redact('sent Bearer abc.def-ghi')).toBe('sent Bearer [redacted]')
  })

  it('is the function the CLI and the client both use', () => {
    expect(cliRedact).toBe(redact)
    const config = {token: 'tok-12345678', apiUrl: 'https://bot:pw-123456@kb.example/v4'}
    expect(redactConfig(config)).toEqual({token: '[redacted]', apiUrl: 'https://bot:[redacted]@kb.example/v4'})
  })

  it("masks the client's summaries of a network failure, a URL's password included", () => {
    const cause = safeCause(new Error('connect to https://bot:pw-123456@kb.example failed, token tok-12345678'), [
      'tok-12345678'
    ])
    expect(cause.message).toBe('connect to https://bot:[redacted]@kb.example failed, token [redacted]')
    const error = new NetworkError('x', {method: 'GET', path: '/', cause})
    expect(JSON.stringify(error.cause)).not.toMatch(/pw-123456|tok-12345678/)
  })
})
