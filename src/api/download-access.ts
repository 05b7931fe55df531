/**
 * Where a download may carry the bearer token (pure). The token belongs to
 * the services the configuration or the login named, and there only to the
 * routes that serve files:
 *
 * - a files origin other than the API's (`https://files.pyrus.com`): any path
 *   under the files URL's path: a dedicated files service serves nothing else;
 * - the API's origin: the files service path (`/services/kb`, where the
 *   local server and on-premise installs serve files beside the API) and the
 *   API's files routes (`{apiPath}/files/…`), nothing else. A download is
 *   saved to disk and usually pushed to git, so a URL that climbs out of the
 *   file routes (`/services/kb/../../v4/members`, normalised by the URL parser
 *   before we see it) must not fetch another API answer with kbsync's rights.
 *
 * Origins are compared whole (scheme, host, port, as WHATWG URL normalises
 * them: default ports dropped, host lower-cased, IPv6 bracketed), so
 * `http://localhost:1` and `http://127.0.0.1:1` are different origins.
 * Anything else is foreign: fetched without the token or not at all, as
 * `foreignDownloads` says.
 */

/** What happens to a download from outside the token's services. */
export type ForeignDownloads = 'anonymous' | 'refuse'

/** The values `foreignDownloads` takes; the first is the default. */
export const foreignDownloadValues: readonly ForeignDownloads[] = ['refuse', 'anonymous']

/** A place that may receive the token: an origin, and a path there (exactly, or everything under it). */
export interface TokenScope {
  service: 'api' | 'files'
  origin: string
  path: string
  under: boolean
}

/** How one request of a download is sent. */
export type DownloadAccess = {send: 'token' | 'anonymous'} | {send: 'refuse'; reason: string}

/**
 * Percent-encoded `/`, `\` and `.`: the URL parser leaves them alone, but a
 * server that decodes before routing may turn `..%2F` into a step out of the
 * file routes, so a path holding one never gets the token.
 */
const encodedSeparator = /%2f|%5c|%2e/i

/** The scopes of the token for the API and files URLs in use (after the login's answer). */
export function tokenScopes(apiUrl: string, filesUrl: string | undefined): TokenScope[] {
  const api = new URL(withSlash(apiUrl))
  const scopes: TokenScope[] = [
    {service: 'api', origin: api.origin, path: '/services/kb', under: false},
    {service: 'api', origin: api.origin, path: `${api.pathname}files/`, under: true}
  ]
  if (filesUrl) {
    const files = new URL(withSlash(filesUrl))
    if (files.origin !== api.origin)
      scopes.push({service: 'files', origin: files.origin, path: files.pathname, under: true})
    else if (files.pathname !== '/')
      scopes.push({service: 'api', origin: files.origin, path: `${files.pathname}services/kb`, under: false})
  }
  return scopes
}

/** Whether `url` lies inside one of `scopes`. */
function inScope(url: URL, scopes: readonly TokenScope[]): boolean {
  if (encodedSeparator.test(url.pathname)) return false
  return scopes.some(
    (scope) =>
      scope.origin === url.origin && (scope.under ? url.pathname.startsWith(scope.path) : url.pathname === scope.path)
  )
}

/**
 * How to send one request of a download: with the token inside the scopes
 * (unless the chain of redirects already left them: `leftScopes`), else as
 * `foreign` says. A non-http(s) URL, or one with credentials in it, is never
 * fetched.
 */
export function downloadAccess(
  url: URL,
  scopes: readonly TokenScope[],
  foreign: ForeignDownloads,
  leftScopes = false
): DownloadAccess {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return {send: 'refuse', reason: `${url.protocol} URLs are never downloaded`}
  if (url.username || url.password) return {send: 'refuse', reason: 'a URL with credentials in it is never downloaded'}
  if (!leftScopes && inScope(url, scopes)) return {send: 'token'}
  if (foreign === 'anonymous') return {send: 'anonymous'}
  const api = scopes.filter((scope) => scope.service === 'api')
  const files = scopes.filter((scope) => scope.service === 'files').map((scope) => scope.origin + scope.path)
  const where = api.some((scope) => scope.origin === url.origin)
    ? `it is on the API's origin but outside its file routes (${api.map((scope) => (scope.under ? `${scope.path}…` : scope.path)).join(', ')})`
    : `it is neither the API (${api[0]?.origin}) nor the files service (${files.length ? files.join(', ') : 'none known: if that host serves the files, set filesUrl or KBSYNC_FILES_URL to it'})`
  return {
    send: 'refuse',
    reason: `${where}; to fetch such files without the token, set foreignDownloads (KBSYNC_FOREIGN_DOWNLOADS) to "anonymous"`
  }
}

/** A URL for messages: origin and path, never the query (a signed URL keeps its signature there). */
export function shownUrl(url: URL | string): string {
  if (typeof url === 'string') {
    if (!URL.canParse(url)) return url.replace(/[?#].*$/s, '')
    url = new URL(url)
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin + url.pathname : `${url.protocol} URL`
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`
}
