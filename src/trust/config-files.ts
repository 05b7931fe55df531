/**
 * Which configuration is the repository's data, and what data may not say.
 *
 * A cloned repository is data: a config file in it (found by the search, or
 * named by `--config`/`KBSYNC_CONFIG`, whose name is the user's but whose
 * content is the repository's) may tune how kbsync reads and publishes the
 * folder, but never name a program to run, a credential or a file to read
 * one from, and never reach outside the repository. Those come from the
 * command line, the environment, or the user-level config: a file outside
 * the repository, in the user's own configuration folder.
 */
import {realpath} from 'node:fs/promises'
import path from 'node:path'
import {repositoryRoot} from '../local/repository.js'
import {isInside} from '../local/walk.js'

/** Where the user-level config is, and what named that place (for messages). */
export interface UserConfigPlace {
  file: string
  /** `KBSYNC_USER_CONFIG` when that variable named it (then it must exist), else the default place. */
  namedBy: 'KBSYNC_USER_CONFIG' | 'default'
}

/**
 * The user-level config file (pure): `$KBSYNC_USER_CONFIG`, else
 * `$XDG_CONFIG_HOME/kbsync/config.json`, else `~/.config/kbsync/config.json`
 * (home from `HOME`, or `USERPROFILE` on Windows). Read from `env` only, so
 * a run with an empty environment has none.
 */
export function userConfigPlace(env: NodeJS.ProcessEnv): UserConfigPlace | undefined {
  const named = env.KBSYNC_USER_CONFIG?.trim()
  if (named) return {file: path.resolve(named), namedBy: 'KBSYNC_USER_CONFIG'}
  const xdg = env.XDG_CONFIG_HOME?.trim()
  // The XDG specification ignores a relative XDG_CONFIG_HOME.
  if (xdg && path.isAbsolute(xdg)) return {file: path.join(xdg, 'kbsync', 'config.json'), namedBy: 'default'}
  const home = (env.HOME ?? env.USERPROFILE)?.trim()
  if (home && path.isAbsolute(home))
    return {file: path.join(home, '.config', 'kbsync', 'config.json'), namedBy: 'default'}
  return undefined
}

/** How the user sets a key the repository may not, for messages. */
const userConfigHint = 'your user config (~/.config/kbsync/config.json, or the file KBSYNC_USER_CONFIG names)'

/**
 * Keys a repository config may not hold, each with why and what to do
 * instead. Each names a program, a credential, a file a credential is read
 * from, or where credentials may go: the repository would decide them for
 * whoever runs kbsync on it (a writer's desk, CI on a pull request).
 */
export const userOnlyKeys: Readonly<Record<string, string>> = {
  browser: `a repository may not name a program for kbsync to run; set KBSYNC_BROWSER, or "browser" in ${userConfigHint}`,
  plantuml: `a repository may not name a program for kbsync to run; set KBSYNC_PLANTUML, or "plantuml" in ${userConfigHint}`,
  d2: `a repository may not name a program for kbsync to run; set KBSYNC_D2, or "d2" in ${userConfigHint}`,
  tokenFile: `a repository may not name a file for kbsync to read a token from and send; use KBSYNC_TOKEN, --token-file, KBSYNC_TOKEN_FILE or "tokenFile" in ${userConfigHint}`,
  login: `a repository may not choose the login kbsync sends with your security key; set KBSYNC_LOGIN, or "login" in ${userConfigHint}`,
  trustedOrigins: `a repository may not decide where your credentials go; set KBSYNC_TRUSTED_ORIGINS, or "trustedOrigins" in ${userConfigHint}`,
  foreignDownloads: `a repository may not send pull's downloads to hosts outside the platform's services (a web edit could name an internal address, and pull would save its answer into the repository); set KBSYNC_FOREIGN_DOWNLOADS, or "foreignDownloads" in ${userConfigHint}`
}

/**
 * The keys whose URL receives credentials (the API, the files service, the
 * accounts service): from a repository config, only on an origin the user
 * trusts when credentials are present (see `origins.ts`).
 */
export const credentialUrlKeys: readonly string[] = ['apiUrl', 'filesUrl', 'accountsUrl']

/**
 * The boundary of a repository config found at or above `folder`: the
 * repository that holds it (the nearest folder with `.git`), else `folder`
 * itself. The search for a config file stops there, and every path a
 * repository config names must stay inside it: a folder above the clone
 * (a shared `/tmp`, a home folder) is nobody's repository.
 */
export async function repositoryBoundary(folder: string): Promise<string> {
  return (await repositoryRoot(folder)) ?? path.resolve(folder)
}

/**
 * The real path `target` (absolute) is reached by: its longest existing
 * part through `realpath` (symbolic links followed), the rest as written.
 */
async function realPathOf(target: string): Promise<string> {
  let existing = path.resolve(target)
  const rest: string[] = []
  for (;;) {
    try {
      return path.join(await realpath(existing), ...rest.reverse())
    } catch {
      const parent = path.dirname(existing)
      if (parent === existing) return path.resolve(target)
      rest.push(path.basename(existing))
      existing = parent
    }
  }
}

/**
 * Whether `target` (absolute) stays inside `root` once symbolic links are
 * followed, also when its last levels do not exist yet (`pull` creates its
 * folder): `docs` linked to `/home` leaves the repository as surely as
 * `../../home` does.
 */
export async function staysInside(root: string, target: string): Promise<boolean> {
  return isInside(await realPathOf(root), await realPathOf(target))
}

/**
 * The repository among `folders`' repositories (only real ones, with
 * `.git`) that holds `file`, if any: a user-level config there would be
 * the repository's data, writable by anyone who can change the repository.
 */
export async function repositoryHolding(file: string, folders: readonly string[]): Promise<string | undefined> {
  for (const folder of folders) {
    const root = await repositoryRoot(folder)
    if (root !== undefined && (await staysInside(root, file))) return root
  }
  return undefined
}
