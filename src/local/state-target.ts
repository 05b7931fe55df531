/**
 * Which knowledge base a sync state describes. The ids and the file URLs a
 * state records are those one server gave: sent to another server, they
 * name items it does not have and files it does not serve (the images of a
 * push to the platform after one to the embedded knowledge base would all
 * point at a loopback port that no longer listens). So the state file keeps
 * what it knows per target (`state.ts`), and a target is named here: the
 * API URL (origin and path, never a credential) and the root topic, or, for
 * the embedded knowledge base, its data file (its port changes at each
 * start; its data file does not).
 */
import {isLoopbackHost} from '../trust/network-address.js'

/** A knowledge base a folder is synced with, as the state file names it. */
export interface StateTarget {
  /** Stable identity without the root topic: the API URL (`https://api.pyrus.com/v4`), or `embedded:<data file>`. */
  base: string
  /** For messages: where requests go (no secret). */
  label: string
  /** The origins (`scheme://host:port`) of its API and its files service, as far as known now. */
  origins: string[]
  /** The embedded knowledge base: its origin is a loopback port chosen at each start. */
  embedded?: boolean
}

/** The origin of `url`, or undefined when it is not an absolute http(s) URL. */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined
  } catch {
    return undefined
  }
}

/** Whether `url` is on a loopback host (where the embedded knowledge base listens). */
export function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname)
  } catch {
    return false
  }
}

/** The API URL without credentials, query or trailing slash: the same server gives the same text. */
function cleanApiUrl(apiUrl: string): string {
  const url = new URL(apiUrl)
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`
}

/** The target of a remote API (`filesUrl`: the files service's URL, when known). */
export function remoteTarget(apiUrl: string, filesUrl?: string): StateTarget {
  const base = cleanApiUrl(apiUrl)
  const origins = [originOf(apiUrl), filesUrl ? originOf(filesUrl) : undefined].filter((o) => o !== undefined)
  return {base, label: base, origins: [...new Set(origins)]}
}

/**
 * The target of the embedded knowledge base kept in `dataFile` (relative to
 * the synced folder, so that moving the folder keeps it), served now at
 * `urls` (its loopback origin of this run).
 */
export function embeddedTarget(dataFile: string, urls: readonly string[]): StateTarget {
  const file = dataFile.split('\\').join('/')
  const origins = urls.map(originOf).filter((o) => o !== undefined)
  return {
    base: `embedded:${file}`,
    label: `embedded local knowledge base (${file})`,
    origins: [...new Set(origins)],
    embedded: true
  }
}

/** A target no caller named (the library used without one): every such run shares it. */
export const unnamedTarget: StateTarget = {base: 'unnamed', label: 'the knowledge base of this client', origins: []}

/** The key of `target` with the root topic `rootTopicId` in the state file. */
export function targetKey(target: Pick<StateTarget, 'base'>, rootTopicId: string | null): string {
  return `${target.base}#root=${rootTopicId ?? ''}`
}

/** `label` with the root topic: `https://api.example.com/v4 (root topic 12)`. */
export function targetLabel(label: string, rootTopicId: string | null): string {
  return `${label} (${rootTopicId === null ? 'knowledge-base root' : `root topic ${rootTopicId}`})`
}

/**
 * Whether the file URL `url` (one a state recorded) was given by `target`:
 * its origin is the target's, or, for the embedded knowledge base, any
 * loopback origin (its port changes at each start).
 */
export function servedBy(target: StateTarget, url: string): boolean {
  const origin = originOf(url)
  if (origin === undefined) return false
  return target.origins.includes(origin) || (target.embedded === true && isLoopbackUrl(url))
}
