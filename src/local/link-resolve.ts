/**
 * Where a local link or image of a body leads, on disk and on the site the
 * tree was written for. A relative path is read against the file, then
 * (for a page with a permalink or an absolute slug) against the page's
 * address, then (Docusaurus) against the folder itself. A root-relative
 * path (`/docs/a.png`) is tried, in this order, as a site address (links
 * only), against the repository root, the configured site root, the folder,
 * the conventional static folders (`public/`, `static/`, in the folder or
 * beside it in the repository), and last against the folder with its first
 * segment dropped (a site that serves the folder under a prefix such as
 * `/docs/`). The first
 * that names something wins. Docusaurus' `@site/` prefix names the site's
 * own folder (where `docusaurus.config.*` is), the repository when no
 * site configuration was found. Files outside the folder count only inside the
 * repository that holds it, and a symbolic link never leads out of it.
 */
import {realpath} from 'node:fs/promises'
import path from 'node:path'
import {documentAt, documentAtAddress, type LinkTargets} from './link-targets.js'
import type {LinkRef} from './types.js'
import {isInside} from './walk.js'
import type {PublishRefusal, PublishSource} from '../trust/publishable.js'
import {ReadRefusedError} from '../trust/read.js'

/** What resolving links needs: the folder, its documents, and where root-relative paths may lead. */
export interface LinkContext {
  /** Absolute real path of the folder. */
  root: string
  targets: LinkTargets
  /** Absolute real path of the git repository holding the folder, when there is one. */
  repository?: string
  /** Absolute path of the site's static root (config `siteRoot`, e.g. Docusaurus's `static/`). */
  siteRoot?: string
  /** The docs site found around the folder (`navigation/site-load.ts`): its folder and the folders it serves at its root. */
  site?: {siteDir: string; staticDirs: readonly string[]}
  /** The door every file published from the folder goes through (`src/trust/publishable.ts`). */
  source: PublishSource
  /**
   * The absolute docs folder of an MkDocs site serving pages as folders
   * (`use_directory_urls`): `a/page.md` is `a/page/`, so a relative image
   * written for the site that is not found from the file is read from there.
   */
  directoryUrls?: string
}

/** A reference that names something. */
export type LinkTarget =
  | {document: LinkRef}
  /** A file that is no document, by folder-relative path (`../static/a.png` when outside the folder, inside the repository). */
  | {file: string}
  /** A file or folder of the repository outside the folder, by repository-relative path. */
  | {repositoryFile: string}

/** A reference that names nothing usable. */
export interface LinkMiss {
  /** What was looked for first, relative to the folder. */
  lookedFor: string
  /** The first place looked at lies outside the folder. */
  outside: boolean
  /** Something was found but may not be published (outside the repository, under a dot-folder, ignored by git…): why. */
  refused?: {reason: PublishRefusal; message: string}
}

// Jekyll writes site paths through filters: `{{ '/docs/x/' | relative_url }}`, `{{ site.baseurl }}/docs/x/`.
const liquidFilter = /^\{\{-?\s*(['"])([^'"]*)\1\s*\|\s*(?:relative_url|absolute_url)\s*-?\}\}/
const liquidBase = /^\{\{-?\s*site\.(?:baseurl|url)\s*-?\}\}/

/** The site path a Liquid expression in a link stands for (`{{ '/docs/x/' | relative_url }}` -> `/docs/x/`); other URLs as they are. */
export function withoutLiquid(url: string): string {
  const filtered = liquidFilter.exec(url)
  if (filtered) return filtered[2]! + url.slice(filtered[0].length)
  const based = liquidBase.exec(url)
  return based ? url.slice(based[0].length) : url
}

/** The path part of a URL (Liquid site paths read), decoded, and what follows it (`?query#anchor`, kept as written). */
export function splitUrl(written: string): {pathPart: string; suffix: string} {
  const url = withoutLiquid(written)
  const at = url.search(/[?#]/)
  const raw = at === -1 ? url : url.slice(0, at)
  let pathPart = raw
  try {
    pathPart = decodeURIComponent(raw)
  } catch {
    // Keep it as written.
  }
  return {pathPart, suffix: at === -1 ? '' : url.slice(at)}
}

/** Finds the document, file or repository file named by a link of `file` whose destination is `written`. */
export async function findLinkTarget(
  written: string,
  file: string,
  context: LinkContext
): Promise<LinkTarget | LinkMiss> {
  const url = withoutLiquid(written)
  const {pathPart} = splitUrl(url)
  const misses: LinkMiss[] = []
  const bySite = siteFolderPath(pathPart, context)
  if (bySite !== undefined) return classifyLink(bySite, context)
  const attempt = async (absolute: string): Promise<LinkTarget | undefined> => {
    const found = await classifyLink(absolute, context)
    if ('lookedFor' in found) misses.push(found)
    else return found
    return undefined
  }
  if (pathPart.startsWith('/')) {
    const byAddress =
      documentAtAddress(context.targets, pathPart) ?? documentAtAddress(context.targets, withoutFirstSegment(pathPart))
    if (byAddress) return {document: byAddress}
    for (const absolute of rootRelative(pathPart, context)) {
      const found = await attempt(absolute)
      if (found) return found
    }
  } else {
    const direct = await attempt(path.join(context.root, path.posix.dirname(file), pathPart))
    // A site-style link (`../other/`) that leaves the folder is more likely the site's page than a repository file.
    const siteStyle = path.posix.extname(pathPart) === '' || /\.html?$/i.test(pathPart)
    if (direct && !('repositoryFile' in direct && siteStyle)) return direct
    const byPage = pageRelative(url, context.targets.pages.get(file), context.targets)
    if (byPage) return {document: byPage}
    // Docusaurus reads a path from the folder too; sites with folder-style addresses (Jekyll, Hugo, MkDocs) serve
    // `a/page.md` at `a/page/`, so their relative links start from there.
    const alternatives = [
      pathPart.startsWith('.') ? undefined : pathPart,
      path.posix.join(file.replace(/\.mdx?$/i, ''), pathPart)
    ]
    for (const alternative of alternatives) {
      if (alternative === undefined) continue
      const found = await classifyLink(path.join(context.root, alternative), context)
      if (!('lookedFor' in found) && !('repositoryFile' in found)) return found
    }
    if (direct) return direct
  }
  return misses[0] ?? {lookedFor: pathPart, outside: false}
}

/** Finds the file the image or attachment `url` of `file` names. */
export async function findAssetTarget(
  url: string,
  file: string,
  context: LinkContext
): Promise<{file: string} | LinkMiss> {
  const {pathPart} = splitUrl(url)
  const bySite = siteFolderPath(pathPart, context)
  const places =
    bySite !== undefined
      ? [bySite]
      : pathPart.startsWith('/')
        ? rootRelative(pathPart, context)
        : [path.join(context.root, path.posix.dirname(file), pathPart), ...servedAsFolder(pathPart, file, context)]
  const misses: LinkMiss[] = []
  for (const absolute of places) {
    const found = await classifyFile(absolute, context)
    if ('file' in found) return found
    misses.push(found)
  }
  return misses.find((miss) => miss.refused) ?? misses[0] ?? {lookedFor: pathPart, outside: false}
}

/** Where a relative `pathPart` of `file` leads on an MkDocs site that serves the page as a folder (none for an index page). */
function servedAsFolder(pathPart: string, file: string, context: LinkContext): string[] {
  if (context.directoryUrls === undefined || /^(?:index|readme)\.md$/i.test(path.posix.basename(file))) return []
  const page = path.join(context.root, file.replace(/\.md$/i, ''))
  return isInside(context.directoryUrls, page) ? [path.join(page, pathPart)] : []
}

/** The document a relative `url` names read against the site address `page` of its file (Jekyll: `../ubuntu/` from `/docs/installation/other-linux/`). */
function pageRelative(url: string, page: string | undefined, targets: LinkTargets): LinkRef | undefined {
  if (page === undefined) return undefined
  try {
    return documentAtAddress(targets, new URL(url, new URL(page, 'http://site/')).pathname)
  } catch {
    return undefined
  }
}

/** Where a Docusaurus `@site/…` path leads (absolute); undefined for any other path. */
function siteFolderPath(pathPart: string, context: LinkContext): string | undefined {
  if (!pathPart.startsWith('@site/')) return undefined
  return path.join(context.site?.siteDir ?? context.repository ?? context.root, pathPart.slice('@site/'.length))
}

// Where docs sites keep the files they serve from the site root: VitePress `docs/public`, Docusaurus and Hugo `static`.
const staticFolders = ['public', 'static']

/** The places a root-relative path may name, in the documented order (each once). */
function rootRelative(pathPart: string, context: LinkContext): string[] {
  const {root, repository} = context
  // Conventional static folders in the folder or beside it; beside it only inside the repository.
  const conventional = staticFolders
    .flatMap((name) => [path.join(root, name), path.join(path.dirname(root), name)])
    .filter((folder) => isInside(repository ?? root, folder))
  const bases = [repository, context.siteRoot, ...(context.site?.staticDirs ?? []), root, ...conventional].filter(
    (base): base is string => base !== undefined
  )
  const places = bases.map((base) => path.join(base, pathPart))
  const stripped = withoutFirstSegment(pathPart)
  if (stripped !== pathPart) places.push(path.join(context.root, stripped))
  return [...new Set(places)]
}

/** `/docs/a/b` -> `/a/b`; a path of one segment stays as it is. */
function withoutFirstSegment(pathPart: string): string {
  const match = /^\/+[^/]+(\/.*)$/.exec(pathPart)
  return match ? match[1]! : pathPart
}

/** The folder-relative path of `absolute` with `/`, and whether it lies inside the folder. */
function relativeTo(root: string, absolute: string): {relative: string; inside: boolean} {
  const relative = path.relative(root, absolute).split(path.sep).join('/')
  return {relative, inside: relative !== '..' && !relative.startsWith('../') && !path.isAbsolute(relative)}
}

/** What a link to `absolute` names: a document or file of the folder, or a file of the repository. */
async function classifyLink(absolute: string, context: LinkContext): Promise<LinkTarget | LinkMiss> {
  const {relative, inside} = relativeTo(context.root, absolute)
  if (inside) {
    const document = documentAt(context.targets, relative)
    if (document) return {document}
    const isPage = /\.(?:mdx?|html?)$/i.test(relative) || path.posix.extname(relative) === ''
    if (!isPage) {
      const found = await classifyFile(absolute, context)
      if ('file' in found) return found
    }
    return {lookedFor: relative, outside: false}
  }
  if (context.repository === undefined || !isInside(context.repository, absolute))
    return {lookedFor: relative, outside: true}
  const real = await realpathIn(context, absolute)
  if (real === undefined) return {lookedFor: relative, outside: true}
  if (!isInside(context.repository, real))
    return {
      lookedFor: relative,
      outside: true,
      refused: {reason: 'outside', message: `${relative} is a symbolic link that leads out of the repository`}
    }
  return {repositoryFile: path.relative(context.repository, absolute).split(path.sep).join('/')}
}

// Real paths looked up per context (a scan): a site's root-relative links try the repository first, each page again.
const realpaths = new WeakMap<LinkContext, Map<string, Promise<string | undefined>>>()

/** The real path of `absolute`, or undefined when nothing is there; each path looked up once per `context`. */
function realpathIn(context: LinkContext, absolute: string): Promise<string | undefined> {
  let known = realpaths.get(context)
  if (known === undefined) realpaths.set(context, (known = new Map()))
  let real = known.get(absolute)
  if (real === undefined) known.set(absolute, (real = realpath(absolute).catch(() => undefined)))
  return real
}

/**
 * Whether `absolute` is a file that may be uploaded: the trust rule of
 * published files (`src/trust/publishable.ts`: a regular file of the
 * repository, or of the folder when there is none, not under a dot-folder,
 * not ignored by git, no link leading out).
 */
async function classifyFile(absolute: string, context: LinkContext): Promise<{file: string} | LinkMiss> {
  const {relative, inside} = relativeTo(context.root, absolute)
  try {
    await context.source.check(absolute)
    return {file: relative}
  } catch (error) {
    if (!(error instanceof ReadRefusedError)) throw error
    const refusal = error as ReadRefusedError<PublishRefusal>
    if (refusal.reason === 'missing') return {lookedFor: relative, outside: !inside}
    return {lookedFor: relative, outside: !inside, refused: {reason: refusal.reason, message: refusal.message}}
  }
}
