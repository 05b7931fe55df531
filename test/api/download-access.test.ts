/** Where a download may carry the token: origins compared whole, paths as the URL parser normalises them. */
import {describe, expect, it} from 'vitest'
import {downloadAccess, tokenScopes} from '../../src/api/download-access.js'

const send = (url: string, scopes: ReturnType<typeof tokenScopes>, leftScopes = false): string =>
  downloadAccess(new URL(url), scopes, 'anonymous', leftScopes).send

describe('downloadAccess', () => {
  it('gives the token to the platform files service and the API file routes only', () => {
    const platform = tokenScopes('https://api.pyrus.com/v4', 'https://files.pyrus.com/')
    const cases: Array<[string, string]> = [
      ['https://files.pyrus.com/services/kb?Id=1', 'token'],
      ['HTTPS://FILES.Pyrus.com:443/services/kb?Id=1', 'token'],
      ['https://api.pyrus.com/v4/files/download/1', 'token'],
      ['https://api.pyrus.com/services/kb?Id=1', 'token'],
      ['http://files.pyrus.com/services/kb?Id=1', 'anonymous'],
      ['https://files.pyrus.com:8443/services/kb?Id=1', 'anonymous'],
      ['https://files.pyrus.com.evil.test/services/kb?Id=1', 'anonymous'],
      ['https://evil.test/https://files.pyrus.com/services/kb', 'anonymous'],
      ['https://api.pyrus.com/v4/members', 'anonymous'],
      ['https://api.pyrus.com/v4/files/../members', 'anonymous'],
      ['https://api.pyrus.com/v4/files/..%2fmembers', 'anonymous'],
      ['https://api.pyrus.com/v4/filesystem', 'anonymous']
    ]
    expect(cases.map(([url]) => [url, send(url, platform)])).toEqual(cases)
  })

  it('compares loopback origins by scheme, host and port as written, IPv6 included', () => {
    const local = tokenScopes('http://[::1]:8080/v4', undefined)
    const cases: Array<[string, string]> = [
      ['http://[0:0:0:0:0:0:0:1]:8080/services/kb?Id=1', 'token'],
      ['http://[::1]:8081/services/kb?Id=1', 'anonymous'],
      ['http://127.0.0.1:8080/services/kb?Id=1', 'anonymous'],
      ['http://localhost:8080/services/kb?Id=1', 'anonymous'],
      ['https://[::1]:8080/services/kb?Id=1', 'anonymous']
    ]
    expect(cases.map(([url]) => [url, send(url, local)])).toEqual(cases)
    expect(send('http://kb.example/services/kb', tokenScopes('http://kb.example:80/v4', undefined))).toBe('token')
  })

  it('keeps the files URL path on a files host of its own, and never gives the token back after a chain left the scopes', () => {
    const scopes = tokenScopes('https://kb.example/api/v4', 'https://cdn.example/kb-files')
    expect(send('https://cdn.example/kb-files/services/kb?Id=1', scopes)).toBe('token')
    expect(send('https://cdn.example/other/1', scopes)).toBe('anonymous')
    expect(send('https://cdn.example/kb-files/services/kb?Id=1', scopes, true)).toBe('anonymous')
  })

  it('refuses by default, saying why and what to set', () => {
    const access = downloadAccess(
      new URL('https://evil.test/x.png'),
      tokenScopes('https://kb.example/v4', undefined),
      'refuse'
    )
    expect(access).toMatchObject({send: 'refuse'})
    expect('reason' in access && access.reason).toMatch(
      /neither the API \(https:\/\/kb\.example\) nor the files service \(none known: .*KBSYNC_FILES_URL to it\).*KBSYNC_FOREIGN_DOWNLOADS/
    )
  })
})
