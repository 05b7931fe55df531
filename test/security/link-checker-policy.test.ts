/**
 * Issue 28, finding 6, the parts a CLI run on one machine cannot stage: the
 * address table (every range the checker refuses, and what stays public),
 * and the checker against an address policy that admits only 127.0.0.2,
 * standing for "the public internet", with 127.0.0.1 standing for the
 * private network. A page on the allowed host that redirects into the
 * refused one, a name that resolves there (checked after DNS, on the
 * address connected to), a name that resolves to both, and a name whose
 * DNS answer changes between two connections (rebinding): nothing reaches
 * the refused address. And hanging hosts are checked side by side.
 */
import type {LookupAddress} from 'node:dns'
import http from 'node:http'
import type {AddressInfo, LookupFunction} from 'node:net'
import {afterAll, describe, expect, it} from 'vitest'
import {checkLinks, type LinkCheckOptions} from '../../src/links/index.js'
import {Agent, request} from 'undici'
import {
  addressPolicy,
  addressRange,
  AddressRefusedError,
  guardedConnector,
  type AddressPolicy
} from '../../src/trust/index.js'
import {temporaryFolders} from '../temp-folders.js'

const folders = temporaryFolders('link-policy')
const servers: http.Server[] = []
afterAll(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
  await folders.removeAll()
})

/** A server on `host` recording the local address each request arrived at. */
async function server(
  host: string,
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.writeHead(200).end()
): Promise<{port: number; seen: string[]}> {
  const seen: string[] = []
  const started = http.createServer((req, res) => {
    seen.push(`${req.socket.localAddress} ${req.url}`)
    handler(req, res)
  })
  servers.push(started)
  await new Promise<void>((resolve) => started.listen(0, host, resolve))
  return {port: (started.address() as AddressInfo).port, seen}
}

/** "The internet" is 127.0.0.2; everything else, 127.0.0.1 included, is refused as private. */
const onlyTwo: AddressPolicy = (address) => (address === '127.0.0.2' ? undefined : 'private')

/** A resolver answering from `table` (a function for answers that change), as `dns.lookup` does. */
function resolver(table: Record<string, () => string[]>): LookupFunction {
  return (hostname, options, callback) => {
    const answer = table[hostname]?.()
    if (!answer) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {code: 'ENOTFOUND'}), '')
    const all: LookupAddress[] = answer.map((address) => ({address, family: 4}))
    if (options.all) callback(null, all)
    else callback(null, all[0]!.address, 4)
  }
}

async function check(urls: string[], options: LinkCheckOptions) {
  const uses = urls.map((url, i) => ({url, file: 'doc.md', line: i + 1, kind: 'link' as const}))
  return checkLinks(uses, await folders.make(), {noCache: true, retries: 0, timeoutMs: 3_000, ...options})
}

describe('the address table', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['fd00::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['100.64.0.1', 'CGNAT'],
    ['100.100.100.200', 'CGNAT'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2002:7f00:1::1', 'reserved'],
    ['::7f00:1', 'reserved'],
    ['fec0::1', 'reserved'],
    ['not an address', 'reserved']
  ])('%s is %s', (address, range) => {
    expect(addressRange(address)).toBe(range)
  })

  it.each(['93.184.215.14', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '64:ff9b::5db8:d70e'])(
    '%s is public',
    (address) => {
      expect(addressRange(address)).toBeUndefined()
    }
  )

  it('--allow-private admits loopback, private networks and CGNAT, never link-local, unspecified, multicast or reserved', () => {
    const allowing = addressPolicy({allowPrivate: true})
    for (const address of ['127.0.0.1', '::1', '10.0.0.1', 'fd00::1', '100.64.0.1'])
      expect(allowing(address)).toBeUndefined()
    for (const address of ['169.254.169.254', 'fe80::1', '0.0.0.0', '224.0.0.1', '240.0.0.1'])
      expect(allowing(address)).toBeDefined()
  })
})

describe('the checker, with 127.0.0.2 for the internet and 127.0.0.1 for the private network', () => {
  it('a page on the allowed host redirecting into the refused one is refused at that hop, by address and by name', async () => {
    const inside = await server('127.0.0.1')
    const outside = await server('127.0.0.2', (req, res) => {
      const location =
        req.url === '/to-address'
          ? `http://127.0.0.1:${inside.port}/secret`
          : req.url === '/to-name'
            ? `http://intranet.example:${inside.port}/secret`
            : undefined
      res.writeHead(location ? 302 : 200, location ? {location} : {}).end()
    })
    const lookup = resolver({
      'docs.example': () => ['127.0.0.2'],
      'intranet.example': () => ['127.0.0.1']
    })
    const result = await check(
      [
        `http://docs.example:${outside.port}/to-address`,
        `http://docs.example:${outside.port}/to-name`,
        `http://docs.example:${outside.port}/page`,
        `http://intranet.example:${inside.port}/direct`
      ],
      {addressPolicy: onlyTwo, lookup}
    )
    expect(inside.seen).toEqual([])
    expect(outside.seen.map((s) => s.split(' ')[1]).sort()).toEqual(['/page', '/to-address', '/to-name'])
    expect(result.links.map((l) => [l.outcome.status, l.outcome.notChecked, l.outcome.reason])).toEqual([
      [
        'unchecked',
        'private-address',
        `redirected to \`http://127.0.0.1:${inside.port}/secret\`: private address (127.0.0.1, private)`
      ],
      [
        'unchecked',
        'private-address',
        `redirected to \`http://intranet.example:${inside.port}/secret\`: private address (intranet.example → 127.0.0.1, private)`
      ],
      ['ok', undefined, undefined],
      ['unchecked', 'private-address', 'private address (intranet.example → 127.0.0.1, private)']
    ])
    expect(result.diagnostics.map((d) => `${d.line} ${d.severity} ${d.rule}`)).toEqual([
      '1 warning link-private-address',
      '2 warning link-private-address',
      '4 warning link-private-address'
    ])
    expect(result.counts).toMatchObject({ok: 1, broken: 0, unchecked: 3, privateAddress: 3})
  })

  it('a name resolving to an allowed and a refused address connects to the allowed one only', async () => {
    const both = await server('0.0.0.0')
    const lookup = resolver({'mixed.example': () => ['127.0.0.1', '127.0.0.2']})
    const urls = Array.from({length: 6}, (_, i) => `http://mixed.example:${both.port}/${i}`)
    const result = await check(urls, {addressPolicy: onlyTwo, lookup, perHost: 6})
    expect(result.counts.ok).toBe(6)
    expect(new Set(both.seen.map((s) => s.split(' ')[0]))).toEqual(new Set(['127.0.0.2']))
  })

  it('DNS rebinding: a name allowed at one connection and private at the next is refused at the next', async () => {
    const first = await server('0.0.0.0')
    const second = await server('0.0.0.0')
    let answers = 0
    const lookup = resolver({'rebind.example': () => [answers++ === 0 ? '127.0.0.2' : '127.0.0.1']})
    const result = await check([`http://rebind.example:${first.port}/a`, `http://rebind.example:${second.port}/b`], {
      addressPolicy: onlyTwo,
      lookup,
      concurrency: 1
    })
    expect(first.seen).toEqual(['127.0.0.2 /a'])
    expect(second.seen).toEqual([])
    expect(result.links.map((l) => l.outcome.notChecked)).toEqual([undefined, 'private-address'])
  })
})

describe('the guarded connector', () => {
  it('checks the remote address of the socket once connected, whatever was checked before', async () => {
    const target = await server('127.0.0.2')
    // Admits the address when asked before connecting, refuses it when asked again after: the last word wins.
    let asked = 0
    const fickle: AddressPolicy = () => (asked++ === 0 ? undefined : 'private')
    const agent = new Agent({connect: guardedConnector(fickle)})
    try {
      const failure = await request(`http://127.0.0.2:${target.port}/`, {dispatcher: agent}).catch((error) => error)
      expect(failure).toBeInstanceOf(AddressRefusedError)
      expect(failure.message).toBe('127.0.0.2 is a private address: not requested')
      expect(target.seen).toEqual([])
    } finally {
      await agent.destroy()
    }
  })
})

describe('hanging links', () => {
  it('40 hanging hosts at a 0.5 s time-out and 8 at once take about 5 rounds, not 40 (or 120 with retries)', async () => {
    const hosts = await Promise.all(Array.from({length: 40}, () => server('127.0.0.1', () => undefined)))
    const started = Date.now()
    const result = await check(
      hosts.map((host) => `http://127.0.0.1:${host.port}/hang`),
      {allowPrivate: true, timeoutMs: 500, concurrency: 8, retries: 2}
    )
    const elapsed = Date.now() - started
    expect(result.counts.broken).toBe(40)
    expect(hosts.reduce((sum, host) => sum + host.seen.length, 0)).toBe(40)
    expect(elapsed).toBeLessThan(5 * 500 + 2_500)
  })
})
