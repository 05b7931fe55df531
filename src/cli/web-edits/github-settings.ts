/**
 * Where the pull request goes, from the variables GitHub Actions sets (and
 * anyone can set outside it): `GITHUB_API_URL` (default
 * `https://api.github.com`), `GITHUB_REPOSITORY` (`owner/name`, else read
 * from `origin`'s URL), `GITHUB_TOKEN` (or `GH_TOKEN`). Pure: the
 * environment in, the settings or a message saying what to set out.
 */
import {isLoopbackHttp} from '../../trust/index.js'
import {UsageError} from '../errors.js'

/** The GitHub API and repository a pull request is opened in. */
export interface GitHubSettings {
  /** The REST API's base URL, without a trailing slash. */
  apiUrl: string
  owner: string
  repo: string
  token: string
}

const defaultApiUrl = 'https://api.github.com'
const namePart = /^[A-Za-z0-9_.-]+$/

/** `owner/name` of a remote URL (`https://host/owner/name(.git)`, `git@host:owner/name(.git)`), if it has that form. */
export function repositoryOfRemote(url: string): {owner: string; repo: string} | undefined {
  const match = /^(?:[a-z+]+:\/\/(?:[^@/]+@)?[^/]+\/|[^@/:]+@[^:/]+:)([^/]+)\/([^/]+?)(?:\.git)?\/?$/i.exec(url.trim())
  if (!match || !namePart.test(match[1]!) || !namePart.test(match[2]!)) return undefined
  return {owner: match[1]!, repo: match[2]!}
}

/** The settings of `env` (and `origin`'s URL, when `GITHUB_REPOSITORY` is unset); a usage error names what is missing. */
export function gitHubSettings(env: NodeJS.ProcessEnv, originUrl?: string): GitHubSettings {
  const apiUrl = (env.GITHUB_API_URL?.trim() || defaultApiUrl).replace(/\/+$/, '')
  let parsed: URL
  try {
    parsed = new URL(apiUrl)
  } catch {
    throw new UsageError(`GITHUB_API_URL is not a URL: ${apiUrl}`)
  }
  // The token goes in a header: never in clear text over the network, never to a URL with credentials of its own.
  if ((parsed.protocol !== 'https:' && !isLoopbackHttp(apiUrl)) || parsed.username !== '' || parsed.password !== '')
    throw new UsageError('GITHUB_API_URL must be an https URL without credentials (http only on a loopback address)')
  const named = env.GITHUB_REPOSITORY?.trim()
  const [owner, repo] = named ? named.split('/') : []
  const repository =
    owner !== undefined && repo !== undefined && namePart.test(owner) && namePart.test(repo)
      ? {owner, repo}
      : named
        ? undefined
        : originUrl !== undefined
          ? repositoryOfRemote(originUrl)
          : undefined
  if (repository === undefined)
    throw new UsageError(
      named
        ? `GITHUB_REPOSITORY must be owner/name, not '${named}'`
        : "set GITHUB_REPOSITORY=owner/name (origin's URL does not name one)"
    )
  const token = env.GITHUB_TOKEN?.trim() || env.GH_TOKEN?.trim()
  if (!token)
    throw new UsageError(
      'set GITHUB_TOKEN to a token that may write pull requests (in a workflow: GITHUB_TOKEN: ${{ github.token }}, with permissions contents: write and pull-requests: write)'
    )
  return {apiUrl, ...repository, token}
}
