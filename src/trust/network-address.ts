/**
 * Which network addresses a request that a repository asks for may reach.
 * A link in a cloned repository is data: checking it must not turn the
 * checker into a proxy onto the machine it runs on (a local server, a
 * database's HTTP port), the network behind it (an intranet, a router) or
 * the cloud's metadata service (169.254.169.254, which hands out
 * credentials). So only public unicast addresses are requested; the
 * others are classified into ranges, and the caller refuses them (or, for
 * intranet docs and only on the user's word, admits loopback and private).
 *
 * The check is on addresses, never on URL text: WHATWG URL parsing already
 * turns `2130706433`, `0x7f000001`, `0177.0.0.1` and `127.1` into
 * `127.0.0.1`, and a host name is checked on what DNS answers, at connect
 * time (`guarded-connect.ts`), so that no spelling or DNS trick gets past.
 * The ranges are the IANA special-purpose registries', held in Node's
 * `net.BlockList` (which also matches IPv4-mapped IPv6, `::ffff:127.0.0.1`,
 * against the IPv4 rules).
 */
import {BlockList, isIP} from 'node:net'

/** The kind of address that is not public: the words the messages use. */
export type AddressRange =
  | 'loopback'
  | 'private'
  /** 100.64/10, shared address space behind carrier-grade NAT. */
  | 'CGNAT'
  /** 169.254/16 and fe80::/10, where the cloud metadata service answers (169.254.169.254). */
  | 'link-local'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'reserved'

/** The ranges `--allow-private` admits: this machine and the networks of an intranet. */
export const privateRanges: readonly AddressRange[] = ['loopback', 'private', 'CGNAT']

/**
 * Decides whether a request may go to one IP address: undefined when it
 * may, else the range that forbids it.
 */
export type AddressPolicy = (address: string) => AddressRange | undefined

/** IPv4 subnets that are not public unicast, by range; ranges are tried in the order they first appear, so broadcast (inside 240/4) comes before reserved. */
const ipv4Rules: ReadonlyArray<[AddressRange, string, number]> = [
  ['unspecified', '0.0.0.0', 8],
  ['loopback', '127.0.0.0', 8],
  ['private', '10.0.0.0', 8],
  ['private', '172.16.0.0', 12],
  ['private', '192.168.0.0', 16],
  ['CGNAT', '100.64.0.0', 10],
  ['link-local', '169.254.0.0', 16],
  ['multicast', '224.0.0.0', 4],
  ['broadcast', '255.255.255.255', 32],
  ['reserved', '192.0.0.0', 24],
  ['reserved', '192.0.2.0', 24],
  ['reserved', '192.88.99.0', 24],
  ['reserved', '198.18.0.0', 15],
  ['reserved', '198.51.100.0', 24],
  ['reserved', '203.0.113.0', 24],
  ['reserved', '240.0.0.0', 4]
]

/** IPv6 subnets inside the ranges a public address may come from that are nonetheless not public. */
const ipv6Rules: ReadonlyArray<[AddressRange, string, number]> = [
  ['unspecified', '::', 128],
  ['loopback', '::1', 128],
  ['private', 'fc00::', 7],
  ['link-local', 'fe80::', 10],
  ['multicast', 'ff00::', 8],
  ['private', '64:ff9b:1::', 48],
  // IETF protocol assignments (Teredo, benchmarking, ORCHID), documentation, 6to4 (which embeds any IPv4), SRv6.
  ['reserved', '2001::', 23],
  ['reserved', '2001:db8::', 32],
  ['reserved', '2002::', 16],
  ['reserved', '3fff::', 20],
  ['reserved', '5f00::', 16]
]

/** Where a public IPv6 address may be: global unicast, and NAT64 (whose embedded IPv4 is checked as IPv4 below). */
const ipv6Public = blockListOf([
  ['2000::', 3, 'ipv6'],
  ['64:ff9b::', 96, 'ipv6']
])

/** One block list per range, in rule order; NAT64 (`64:ff9b::a.b.c.d`) of every IPv4 rule joins that rule's range. */
const rangeLists: ReadonlyArray<[AddressRange, BlockList]> = (() => {
  const byRange = new Map<AddressRange, Array<[string, number, 'ipv4' | 'ipv6']>>()
  const add = (range: AddressRange, subnet: [string, number, 'ipv4' | 'ipv6']) => {
    byRange.set(range, [...(byRange.get(range) ?? []), subnet])
  }
  for (const [range, network, prefix] of ipv4Rules) {
    add(range, [network, prefix, 'ipv4'])
    add(range, [`64:ff9b::${network}`, 96 + prefix, 'ipv6'])
  }
  for (const [range, network, prefix] of ipv6Rules) add(range, [network, prefix, 'ipv6'])
  return [...byRange].map(([range, subnets]) => [range, blockListOf(subnets)] as [AddressRange, BlockList])
})()

function blockListOf(subnets: ReadonlyArray<[string, number, 'ipv4' | 'ipv6']>): BlockList {
  const list = new BlockList()
  for (const [network, prefix, family] of subnets) list.addSubnet(network, prefix, family)
  return list
}

/**
 * The range of `address` (an IPv4 or IPv6 address, brackets and a zone
 * allowed), or undefined when it is public unicast. Text that is no IP
 * address is `reserved`: a caller that cannot say where it connects does
 * not connect.
 */
export function addressRange(address: string): AddressRange | undefined {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '')
  const family = isIP(bare)
  if (family === 0) return 'reserved'
  const type = family === 4 ? 'ipv4' : 'ipv6'
  for (const [range, list] of rangeLists) if (list.check(bare, type)) return range
  // IPv6 outside global unicast and NAT64 (IPv4-mapped and -compatible forms, site-local, unassigned) is no public address.
  if (type === 'ipv6' && !ipv6Public.check(bare, 'ipv6')) return 'reserved'
  return undefined
}

/**
 * The policy of a link check: public unicast only, or with `allowPrivate`
 * also loopback, private and CGNAT. Link-local (the cloud metadata
 * service), unspecified, multicast, broadcast and reserved addresses are
 * refused either way: no intranet page lives there.
 */
export function addressPolicy(options: {allowPrivate?: boolean} = {}): AddressPolicy {
  return (address) => {
    const range = addressRange(address)
    if (range === undefined) return undefined
    return options.allowPrivate && privateRanges.includes(range) ? undefined : range
  }
}

/**
 * What `policy` says of the host of a URL before any DNS lookup: an IP
 * literal is checked as it is, `localhost` and every `*.localhost` name
 * (which resolve to loopback by definition, RFC 6761) as loopback; other
 * names are undefined here and checked on what DNS answers, at connect time.
 */
export function hostRange(hostname: string, policy: AddressPolicy): AddressRange | undefined {
  const host = bareHost(hostname)
  if (isIP(host.replace(/%.*$/, '')) !== 0) return policy(host)
  if (isLocalhostName(host)) return policy('127.0.0.1') ?? policy('::1')
  return undefined
}

/**
 * Whether a URL's host is loopback whatever the policy: `localhost`, a
 * `*.localhost` name, or an IP literal in 127/8, `::1` or their mapped forms
 * (where the embedded knowledge base listens).
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = bareHost(hostname)
  return isLocalhostName(host) || (isIP(host.replace(/%.*$/, '')) !== 0 && addressRange(host) === 'loopback')
}

/** A URL's host name without IPv6 brackets or the root's final dot, in lower case. */
function bareHost(hostname: string): string {
  return hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase()
}

/** `localhost` and its subdomains resolve to loopback by definition (RFC 6761). */
function isLocalhostName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost')
}
