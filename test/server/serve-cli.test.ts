/**
 * `kbsync serve` on the command line: its help lists every option and shows
 * the local token, login and security key; options set the login on
 * loopback too, and switch the platform habits on, as a spawned server
 * answers over HTTP.
 */
import {describe, expect, it} from 'vitest'
// The CLI first: the command modules import its main module, which lists them.
import {run, tempDir} from '../cli/helpers.js'
import {serveCommand} from '../../src/cli/commands/serve.js'
import {localCredentials, localToken} from '../../src/server/index.js'
import {spawnServe} from './helpers.js'

/** POSTs a login to the server at `apiUrl`; resolves to the status and error code. */
async function login(apiUrl: string, fields: Record<string, unknown>): Promise<[number, string | undefined]> {
  const answer = await fetch(`${apiUrl}/auth`, {
    method: 'POST',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify(fields)
  })
  return [answer.status, ((await answer.json()) as {error_code?: string}).error_code]
}

describe('kbsync serve --help', () => {
  it('lists every option and shows the defaults of the local token, login and security key', async () => {
    const help = await run(['serve', '--help'], {cwd: await tempDir()})
    expect(help.code).toBe(0)
    for (const option of Object.keys(serveCommand.options))
      expect(help.out, option).toMatch(new RegExp(`^ {2}--${option}\\b`, 'm'))
    expect(help.out).toContain(`default ${localToken}`)
    expect(help.out).toMatch(new RegExp(`--login L .*\\s+\\(default ${localCredentials.login},`))
    expect(help.out).toMatch(new RegExp(`--security-key K .*\\(default ${localCredentials.securityKey},`))
    expect(help.out).toMatch(/Platform habits/)
  })
})

describe('kbsync serve on the command line', () => {
  it('takes a login of its own on loopback and switches the platform habits on: two organisations, nested fences, dropped bursts', async () => {
    const own = ['--login', 'me@example.com', '--security-key', 'my-key']
    const served = await spawnServe([
      '--data',
      ':memory:',
      ...own,
      '--platform-habits',
      '--login-persons',
      '1,7',
      '--drop-over',
      '4'
    ])
    try {
      await served.printed(/Platform habits: .*person 1, 7 \(POST \/auth needs person_id\).*more than 4 requests/)
      expect(served.out()).not.toContain('my-key')
      const mine = {login: 'me@example.com', security_key: 'my-key'}
      expect(
        await login(served.apiUrl, {
          login: localCredentials.login,
          security_key: localCredentials.securityKey,
          person_id: 7
        })
      ).toEqual([401, 'invalid_credentials'])
      expect(await login(served.apiUrl, mine)).toEqual([500, 'server_error'])
      const answer = await fetch(`${served.apiUrl}/auth`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({...mine, person_id: 7})
      })
      const {access_token} = (await answer.json()) as {access_token: string}
      await new Promise((resolve) => setTimeout(resolve, 1100))
      const write = await fetch(`${served.apiUrl}/knowledgebase`, {
        method: 'POST',
        headers: {authorization: `Bearer ${access_token}`, 'content-type': 'application/json'},
        body: JSON.stringify({title: 'Fences', body: '````\n```\n````'})
      })
      expect(write.status).toBe(500)
      const burst = await Promise.all(
        Array.from({length: 10}, () =>
          fetch(`${served.apiUrl}/knowledgebase/structure`, {headers: {authorization: `Bearer ${access_token}`}}).then(
            (r) => r.status,
            () => 'dropped'
          )
        )
      )
      expect(burst.filter((outcome) => outcome === 'dropped').length).toBeGreaterThanOrEqual(6)
    } finally {
      expect(await served.stop()).toBe(0)
    }
  })

  it('refuses person ids that are not numbers', async () => {
    const result = await run(['serve', '--data', ':memory:', '--login-persons', '1,seven'], {cwd: await tempDir()})
    expect([result.code, result.err]).toEqual([
      2,
      expect.stringMatching(/--login-persons takes person ids separated by commas, e\.g\. 1,7, not '1,seven'/)
    ])
  })
})
