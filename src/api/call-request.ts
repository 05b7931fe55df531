/**
 * What one attempt of a call sends: the URL a `CallSpec` names, the path
 * shown in events and messages, and the body produced afresh.
 */
import {Readable} from 'node:stream'
import type {CallSpec} from './call-spec.js'

/** The bases a call's URL is made from. */
export interface CallBases {
  apiUrl: string
  filesUrl: string | undefined
  accountsUrl: string
}

/** The URL of a call, with its query. */
export function callUrl(spec: CallSpec<unknown>, bases: CallBases): string {
  const query = spec.query && Object.keys(spec.query).length ? `?${new URLSearchParams(spec.query).toString()}` : ''
  switch (spec.base) {
    case 'api':
      return `${bases.apiUrl}${spec.path}${query}`
    case 'upload':
      return bases.filesUrl ? `${bases.filesUrl}/v4/files/upload` : `${bases.apiUrl}/files/upload`
    case 'auth':
      return `${bases.accountsUrl}/auth`
    case 'url':
      return spec.path + query
  }
}

/** The path of a call as events and messages show it. */
export function displayPath(spec: CallSpec<unknown>, url: string, apiUrl: string): string {
  if (spec.base === 'api') return url.slice(apiUrl.length)
  if (spec.base === 'auth') return '/auth'
  const parsed = new URL(url)
  // A URL outside our own services may carry its own credentials in the query (a signed link): events and messages show its path only.
  return spec.auth === false ? parsed.pathname : parsed.pathname + parsed.search
}

/** The body and headers of one attempt: JSON, or the spec's body produced afresh (a stream re-opened). */
export async function requestBody(
  spec: CallSpec<unknown>
): Promise<{body: string | Buffer | Readable | undefined; headers: Record<string, string>}> {
  const headers: Record<string, string> = {accept: 'application/json'}
  if (spec.json !== undefined)
    return {body: JSON.stringify(spec.json), headers: {...headers, 'content-type': 'application/json'}}
  if (!spec.body) return {body: undefined, headers}
  const source = await spec.body()
  const body =
    typeof source.body === 'string' || Buffer.isBuffer(source.body) ? source.body : Readable.from(source.body)
  return {body, headers: {...headers, ...source.headers}}
}
