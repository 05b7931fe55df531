/**
 * Who may talk to the local server. On loopback it is the developer's own
 * test double, with a public token and public credentials; bound to any
 * other address it is reachable by others, so it takes only the operator's
 * own token and credentials. And whatever it is bound to, it answers only
 * requests addressed to it by name (the Host header), so a web page whose
 * name an attacker points at 127.0.0.1 (DNS rebinding) gets nothing.
 */
import {isIP} from 'node:net'

/** The token anyone can read in the docs: good on loopback only. */
export const localToken = 'kbsync-local-token'

/** The login and security key anyone can read in the docs: good on loopback only. */
export const localCredentials = {login: 'local', securityKey: 'local-key'} as const

/** A login and security key accepted by `POST /auth`. */
export interface Credentials {
  login: string
  securityKey: string
}

/** What the server accepts, once the exposure rules are applied. */
export interface Access {
  /** The bearer token the server accepts. */
  token: string
  /** The credentials `POST /auth` accepts; undefined: it refuses every login. */
  credentials: Credentials | undefined
  /** Whether the server listens beyond loopback. */
  exposed: boolean
}

/** A setting that would let strangers in, or that can let nobody in. */
export class ExposureError extends Error {}

/** Whether `host` (a bind address or the name in a Host header) means this machine only: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackName(host: string): boolean {
  const name = unbracket(host).toLowerCase()
  if (name === 'localhost' || name === '::1') return true
  const v4 = name.startsWith('::ffff:') ? name.slice(7) : name
  return isIP(v4) === 4 && v4.startsWith('127.')
}

/**
 * The token and credentials of a server bound to `host`, from what the
 * operator gave (undefined: not given). Throws an `ExposureError` saying
 * what to change when beyond loopback the public defaults would apply or
 * were given, and anywhere for an empty value or half a login.
 */
export function decideAccess(host: string, given: {token?: string; login?: string; securityKey?: string}): Access {
  const exposed = !isLoopbackName(host)
  const where = `the server listens on ${host}, beyond this machine`
  if (given.token !== undefined && given.token.trim() === '')
    throw new ExposureError('the token is empty: give a non-empty one, or none for the local default')
  for (const [name, value] of [
    ['login', given.login],
    ['security key', given.securityKey]
  ] as const) {
    if (value !== undefined && value.trim() === '')
      throw new ExposureError(`the ${name} is empty: give both a login and a security key, or neither`)
  }
  if ((given.login === undefined) !== (given.securityKey === undefined)) {
    throw new ExposureError('give both a login and a security key, or neither')
  }
  const credentials =
    given.login !== undefined && given.securityKey !== undefined
      ? {login: given.login, securityKey: given.securityKey}
      : undefined
  if (!exposed) return {token: given.token ?? localToken, credentials: credentials ?? {...localCredentials}, exposed}
  if (given.token === undefined) throw new ExposureError(`${where}: give it a token of your own`)
  if (given.token === localToken)
    throw new ExposureError(`${where}: '${localToken}' is the public local token, give it a token of your own`)
  if (
    credentials &&
    credentials.login === localCredentials.login &&
    credentials.securityKey === localCredentials.securityKey
  ) {
    throw new ExposureError(
      `${where}: ${localCredentials.login}/${localCredentials.securityKey} are the public local credentials, give a login and security key of your own (or none: logins are then refused)`
    )
  }
  return {token: given.token, credentials, exposed}
}

/**
 * Whether a request's Host header addresses this server: a loopback name or
 * one of `names`, with the server's `port` (a missing port means 80).
 */
export function isAllowedHost(header: string | undefined, port: number, names: readonly string[]): boolean {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(header?.trim() ?? '')
  if (!match) return false
  if (Number(match[2] ?? 80) !== port) return false
  const name = unbracket(match[1]!).toLowerCase().replace(/\.$/, '')
  return isLoopbackName(name) || names.some((allowed) => unbracket(allowed).toLowerCase() === name)
}

/** The names a server bound to `host` answers to besides the loopback ones: the bound address (unless a wildcard) and `extra`. */
export function hostNames(host: string, extra: readonly string[] = []): string[] {
  const wildcard = ['0.0.0.0', '::', '[::]'].includes(host)
  return [...(wildcard ? [] : [host]), ...extra]
}

function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
}
