/**
 * Resolves the local references a body makes (collected by `references.ts`)
 * against the folder: what each link, image, attachment and diagram becomes,
 * and the diagnostics of those that lead nowhere. Kept apart from collecting
 * because it reads the folder (the file system), while collecting only reads
 * a tree.
 */
import path from 'node:path'
import type {Diagnostic} from './diagnostic.js'
import type {DiagramKind} from '../diagrams/kinds.js'
import {diagramKey, diagramPath} from '../diagrams/mermaid-source.js'
import {keptAsCode} from '../diagrams/code-markers.js'
import {isDrawioPath} from '../dialect/gfm-to-kb/drawio-links.js'
import {
  findAssetTarget,
  findLinkTarget,
  splitUrl,
  type LinkContext,
  type LinkMiss,
  type LinkTarget
} from './link-resolve.js'
import type {DocumentIndex, LocalRef, Resolved} from './references.js'
import type {PublishRefusal, PublishSource} from '../trust/publishable.js'

/** What `resolveLocalRefs` found. */
export interface Resolution {
  /** Per reference (same order): what it points at, or null (left as written: an error stops the run). */
  resolutions: Array<Resolved | null>
  /** Folder-relative paths of the local files the body uses (`../x.png` for one elsewhere in the repository). */
  used: string[]
  /** The diagrams and formulas of the body, in document order (each resolved to its rendering's path, `diagramPath`). */
  diagrams: DiagramUse[]
}

/** A diagram or formula of a body: its kind, its key (`diagramKey`), its source, and where it is. */
export interface DiagramUse {
  kind: DiagramKind
  key: string
  source: string
  file: string
  /** 1-based line of the opening fence. */
  line?: number
}

/** How links are resolved beyond the folder's own documents (the config's `brokenLinks`, `repoUrl`, `siteRoot`). */
export interface LinkOptions {
  /** A link or image whose target does not exist: an `error` (default), or a `warn`ing that publishes its text. */
  brokenLinks?: 'error' | 'warn'
  /** Base URL of the repository's files (`https://github.com/org/repo/blob/main/`): links to files outside the folder point there. */
  repoUrl?: string
  /** Absolute path of the folder root-relative paths are served from (Docusaurus's `static/`). */
  siteRoot?: string
  /** The docs site found around the folder (`LinkContext.site`). */
  site?: LinkContext['site']
}

/** Everything `resolveLocalRefs` reads: where the documents are, and the options. */
export interface ResolveContext extends LinkContext, LinkOptions {}

/**
 * Resolves the local references of the body of `file` (see
 * `link-resolve.ts` for the forms and the order): links to documents of the
 * folder, images and attachment files (inside the folder, or elsewhere in
 * the repository). Problems go to `diagnostics` with file and line.
 */
export async function resolveLocalRefs(
  refs: readonly LocalRef[],
  file: string,
  context: ResolveContext,
  diagnostics: Diagnostic[]
): Promise<Resolution> {
  const resolutions: Array<Resolved | null> = refs.map(() => null)
  const used: string[] = []
  const diagrams: DiagramUse[] = []
  for (const [index, ref] of refs.entries()) {
    const at = {
      file,
      ...(ref.line !== undefined ? {line: ref.line} : {}),
      ...(ref.column !== undefined ? {column: ref.column} : {})
    }
    const report: Report = (diagnostic) => diagnostics.push({...at, ...diagnostic})
    if (ref.kind === 'diagram') {
      const kind = ref.diagram ?? 'mermaid'
      const key = diagramKey(kind, ref.source ?? '')
      // A block the platform holds as code (a pull found it so) stays code: a push after the pull changes nothing.
      if (keptAsCode(context.root, key, kind)) continue
      resolutions[index] = {asset: {path: diagramPath(key, kind)}}
      diagrams.push({kind, key, source: ref.source ?? '', ...at})
      continue
    }
    // A link to a draw.io file publishes the file (as the diagram, or a link to it): an asset like an image.
    if (ref.kind === 'link' && !isDrawioPath(ref.url)) {
      resolutions[index] = resolveLink(ref.url, await findLinkTarget(ref.url, file, context), context, report)
      continue
    }
    const found = await findAssetTarget(ref.url, file, context)
    const what = ref.kind === 'image' ? 'Image' : 'File'
    if ('file' in found) {
      resolutions[index] = {asset: {path: found.file}}
      used.push(found.file)
    } else if (found.refused?.reason === 'outside') {
      const where = found.outside ? 'the repository that holds the folder' : 'the folder'
      report({
        severity: 'error',
        message: `${what} \`${ref.url}\` lies outside ${where} (or a symbolic link leads there)`,
        hint: 'Copy the file into the folder',
        rule: 'asset-outside'
      })
    } else if (found.refused) {
      // Never published, whatever --broken-links says: publishing its text is fine, its bytes are not.
      report({
        severity: 'error',
        message: `${what} \`${ref.url}\` may not be published: ${found.refused.message}`,
        hint: assetHints[found.refused.reason] ?? 'Use a regular, readable file of the repository',
        rule: 'asset-refused'
      })
    } else {
      resolutions[index] = broken(context, report, {
        message: `${what} \`${ref.url}\` not found (looked for \`${found.lookedFor}\`)`,
        rule: 'asset-missing'
      })
    }
  }
  return {resolutions, used, diagrams}
}

/** How to fix a file the trust rule refuses, by reason. */
const assetHints: Partial<Record<PublishRefusal, string>> = {
  hidden: 'If the file is meant to be published, move it out of the dot-folder or rename the dot-file',
  ignored: 'Publish only files git tracks: stop ignoring it in .gitignore, or use another file',
  'not-a-file': 'Name a regular file (not a folder, FIFO, socket or device)'
}

type Report = (diagnostic: Omit<Diagnostic, 'file' | 'line' | 'column'>) => void

/** What a link becomes: a document link, a link into the repository, or its text (with a warning, or an error when broken). */
function resolveLink(
  url: string,
  found: LinkTarget | LinkMiss,
  context: ResolveContext,
  report: Report
): Resolved | null {
  if ('document' in found) return {link: found.document}
  if ('repositoryFile' in found || 'file' in found) {
    const inRepository =
      'repositoryFile' in found
        ? found.repositoryFile
        : context.repository !== undefined
          ? repositoryPath(context, found.file)
          : undefined
    if (context.repoUrl !== undefined && inRepository !== undefined)
      return {external: {url: repositoryUrl(context.repoUrl, inRepository, url)}}
    if ('file' in found) {
      // The platform cannot hold a link to a local file: a relative URL there would lead nowhere.
      report({
        severity: 'warning',
        message: `Link \`${url}\` points to a local file that is not a document; its text is published without the link`,
        hint: 'Put the file in an attachments group to upload it, or set repoUrl to link to it in the repository',
        rule: 'link-to-file'
      })
      return {plain: true}
    }
    report({
      severity: 'warning',
      message: `Link \`${url}\` points outside the folder (to \`${found.repositoryFile}\` of the repository); its text is published without the link`,
      hint: 'Set repoUrl (e.g. "https://github.com/org/repo/blob/main/") to link to the file in the repository',
      rule: 'link-outside'
    })
    return {plain: true}
  }
  if (found.outside) {
    return broken(context, report, {
      message: `Link \`${url}\` points outside the folder, to \`${found.lookedFor}\`, which is no file of the repository that holds it`,
      rule: 'link-outside'
    })
  }
  return broken(context, report, {
    message: `Link \`${url}\` points to \`${found.lookedFor}\`, which is not a document of the folder`,
    hint: 'Fix the path, or remove the link (an ignored file is not a document either)',
    rule: 'missing-link-target'
  })
}

/** A target that does not exist: an error, or with `brokenLinks: "warn"` a warning and the reference published as its text. */
function broken(
  context: ResolveContext,
  report: Report,
  problem: {message: string; hint?: string; rule: string}
): Resolved | null {
  if (context.brokenLinks !== 'warn') {
    report({severity: 'error', ...problem})
    return null
  }
  report({
    severity: 'warning',
    ...problem,
    message: `${problem.message}; its text is published without it (--broken-links=warn)`
  })
  return {plain: true}
}

/** The repository-relative path of the folder-relative `file`. */
function repositoryPath(context: ResolveContext, file: string): string {
  return path.relative(context.repository!, path.join(context.root, file)).split(path.sep).join('/')
}

/** `repoUrl` joined with a repository path, the link's `?query#anchor` kept. */
function repositoryUrl(repoUrl: string, repositoryFile: string, url: string): string {
  const encoded = repositoryFile.split('/').map(encodeURIComponent).join('/')
  return `${repoUrl.replace(/\/+$/, '')}/${encoded}${splitUrl(url).suffix}`
}

/** The context `resolveLocalRefs` reads for the folder at `root` (absolute real path): its documents, its repository (`repositoryRoot` of `root`), where its files may be published from, the options. */
export function resolveContextOf(
  root: string,
  repository: string | undefined,
  documents: DocumentIndex,
  source: PublishSource,
  options: LinkOptions = {}
): ResolveContext {
  return {
    root,
    targets: documents,
    source,
    ...(repository !== undefined ? {repository} : {}),
    ...options
  }
}
