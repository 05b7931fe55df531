/**
 * The door every outgoing connection of a repository-driven request goes
 * through: an undici connector that only connects to addresses an
 * `AddressPolicy` admits. It checks the address actually connected to, not
 * the text of the URL:
 *
 * - an IP literal host is checked before the socket is made;
 * - a name is resolved by the socket's own lookup, which drops the answers
 *   the policy refuses (and fails when none is left), so the address
 *   checked is the address connected to: a DNS answer that changes between
 *   a check and the connection (DNS rebinding) cannot slip through;
 * - once connected, the socket's remote address is checked again before a
 *   byte is written, whatever path led there.
 *
 * Every redirect hop opens its connection here too, so a public page that
 * redirects to `http://127.0.0.1/` is refused at that hop.
 */
import {lookup as dnsLookup, type LookupAddress} from 'node:dns'
import {isIP, type LookupFunction, type Socket} from 'node:net'
import type {buildConnector} from 'undici'
import type {AddressPolicy, AddressRange} from './network-address.js'

/** A connection refused because of where it would go; `code` is `KBSYNC_ADDRESS_REFUSED`. */
export class AddressRefusedError extends Error {
  override name = 'AddressRefusedError'
  readonly code = 'KBSYNC_ADDRESS_REFUSED'
  constructor(
    /** The host as the URL names it. */
    readonly host: string,
    /** The address refused (the first, when DNS gave several). */
    readonly address: string,
    /** Why: the range the address is in. */
    readonly range: AddressRange
  ) {
    super(`${host}${address !== host ? ` resolves to ${address},` : ' is'} a ${range} address: not requested`)
  }
}

/** The `AddressRefusedError` in `error` or its causes, if any (undici wraps some errors). */
export function addressRefusalOf(error: unknown): AddressRefusedError | undefined {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if (cause instanceof AddressRefusedError) return cause
    cause = (cause as {cause?: unknown}).cause
  }
  return undefined
}

/** Options of `guardedConnector`: undici's connector options, and the lookup that resolves names (default `dns.lookup`). */
export type GuardedConnectorOptions = buildConnector.BuildOptions & {lookup?: LookupFunction}

/**
 * An undici connector (`new Agent({connect: guardedConnector(policy)})`)
 * that connects only where `policy` allows; a refusal fails the request
 * with an `AddressRefusedError`. undici is loaded by the first connection
 * (`import()`), so importing the trust rules does not load it.
 */
export function guardedConnector(
  policy: AddressPolicy,
  options: GuardedConnectorOptions = {}
): buildConnector.connector {
  let built: Promise<buildConnector.connector> | undefined
  const connector = () =>
    (built ??= import('undici').then((undici) =>
      undici.buildConnector({...options, lookup: guardedLookup(policy, options.lookup ?? defaultLookup)})
    ))
  return (target, callback) => {
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1')
    if (isIP(host) !== 0) {
      const range = policy(host)
      if (range !== undefined) return callback(new AddressRefusedError(host, host, range), null)
    }
    connector().then(
      (connect) => connectChecked(connect, policy, host, target, callback),
      (error: Error) => callback(error, null)
    )
  }
}

/** Connects with `connect`, then checks the address the socket reached before handing it over. */
function connectChecked(
  connect: buildConnector.connector,
  policy: AddressPolicy,
  host: string,
  target: buildConnector.Options,
  callback: buildConnector.Callback
): void {
  connect(target, (...result) => {
    const [error, socket] = result
    if (error) return callback(error, null)
    // The address the socket is connected to, whichever way it was reached.
    const remote = (socket as Socket).remoteAddress
    const range = remote === undefined ? 'reserved' : policy(remote)
    if (range === undefined) return callback(null, socket)
    socket.destroy()
    callback(new AddressRefusedError(host, remote ?? 'an unknown address', range), null)
  })
}

/** `dns.lookup`, typed as a socket's lookup function. */
const defaultLookup: LookupFunction = (hostname, options, callback) => dnsLookup(hostname, options, callback)

/**
 * A socket lookup that resolves with `lookup` and keeps only the addresses
 * `policy` admits; none left is an `AddressRefusedError`. Answers both the
 * one-address and the `all` forms (Node asks for all when it races
 * IPv4 and IPv6).
 */
export function guardedLookup(policy: AddressPolicy, lookup: LookupFunction = defaultLookup): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, {...options, all: true}, (error, addresses) => {
      if (error) return callback(error, '')
      const all: LookupAddress[] = Array.isArray(addresses)
        ? addresses
        : [{address: addresses, family: isIP(addresses)}]
      const admitted = all.filter((entry) => policy(entry.address) === undefined)
      if (admitted.length === 0) {
        const first = all[0]
        const refused = new AddressRefusedError(
          hostname,
          first?.address ?? hostname,
          first ? policy(first.address)! : 'reserved'
        )
        return callback(refused, '')
      }
      if (options.all) return callback(null, admitted)
      callback(null, admitted[0]!.address, admitted[0]!.family)
    })
  }
}
