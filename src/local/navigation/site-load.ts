/**
 * Finds and reads the configuration of a JavaScript docs site, nearest
 * first, in the scanned folder or above it up to the repository root (as
 * `mkdocs.yml` is found): Starlight's `astro.config.*`, Docusaurus'
 * `sidebars.*` and `docusaurus.config.*`. Each is read as data by the trust
 * rule of scripts (`readScriptExport`): parsed, never run. The result names
 * the sidebar, how it names documents, and the folder of each locale's
 * documents (the default language first).
 */
import path from 'node:path'
import type {Diagnostic} from '../diagnostic.js'
import {isInside} from '../walk.js'
import {ReadRefusedError, readScriptExport, readTextInside, readTomlKeys, readYaml} from '../../trust/index.js'
import {translateSidebars, translationMessages} from './docusaurus-i18n.js'
import {flattenKeys, hugoConfigNames, hugoLocales} from './hugo-languages.js'
import {readDocusaurusConfig, readSidebars, sidebarsFileNames, type Sidebar} from './docusaurus-sidebars.js'
import type {SiteItem} from './site-items.js'
import type {SiteNaming} from './site-outline.js'
import {readStarlight, starlightDocsDir, type FolderTitle, type SiteLocale} from './starlight.js'

/** The folder of one locale's documents. */
export interface SiteTree {
  /** The locale; undefined for a site of one language. */
  locale?: SiteLocale
  isDefault: boolean
  /** The folder, absolute. */
  base: string
}

/** What a docs site's configuration says about the documents. */
export interface SiteNavigation {
  /** The navigation file, relative to the scanned folder, and its name, for messages. */
  file: string
  source: string
  naming: SiteNaming
  /** The sidebar; undefined when the site has none (its folders give the order). */
  items?: SiteItem[]
  /** The default language's tree first, then the other locales'. */
  trees: SiteTree[]
  /** The site's own folder (where its configuration is): Docusaurus `@site/` names it. */
  siteDir: string
  /** The folders the site serves at its root (Docusaurus and Hugo `static/`, Astro `public/`), absolute. */
  staticDirs: string[]
  /** Titles plugins give folders of each tree. */
  folderTitles?: FolderTitle[]
}

const astroNames = ['astro.config.mjs', 'astro.config.ts', 'astro.config.mts', 'astro.config.js', 'astro.config.cjs']
const docusaurusNames = [
  'docusaurus.config.ts',
  'docusaurus.config.js',
  'docusaurus.config.mjs',
  'docusaurus.config.cjs'
]

/** The most bytes of a site configuration read. */
const maxSiteConfigBytes = 1048576

/** Reads the docs site configuration nearest to `root` (absolute), up to `repository`; problems go to `diagnostics`. */
export async function loadSite(
  root: string,
  repository: string | undefined,
  diagnostics: Diagnostic[]
): Promise<SiteNavigation | undefined> {
  const top = repository ?? root
  for (let dir = root; ; dir = path.dirname(dir)) {
    const astro = await readFirst(dir, astroNames, top)
    if (astro) return starlightSite(root, dir, astro, diagnostics)
    const sidebars = await readFirst(dir, sidebarsFileNames, top)
    const docusaurus = await readFirst(dir, docusaurusNames, top)
    if (sidebars || docusaurus) return docusaurusSite(root, dir, {sidebars, docusaurus, top}, diagnostics)
    const hugo = await hugoSite(root, dir, top)
    if (hugo) return hugo
    if (dir === top || path.dirname(dir) === dir || !isInside(top, dir)) return undefined
  }
}

interface Found {
  path: string
  text: string
}

async function readFirst(dir: string, names: readonly string[], top: string): Promise<Found | undefined> {
  for (const name of names) {
    const candidate = path.join(dir, name)
    try {
      // By the trust rule of reads: a FIFO would block the scan, a link could lead out of the repository.
      return {path: candidate, text: await readTextInside(candidate, {boundary: top, maxBytes: maxSiteConfigBytes})}
    } catch (error) {
      if (!(error instanceof ReadRefusedError) || error.reason !== 'missing') throw error
    }
  }
  return undefined
}

/** Reads a script's default export; a script that cannot be read is one warning, and undefined. */
function exported(
  found: Found,
  file: string,
  diagnostics: Diagnostic[]
): {value: unknown; lineOf: (value: unknown) => number | undefined} | undefined {
  const read = readScriptExport(found.text, /\.[mc]?ts$/.test(found.path))
  if (read.ok) return read
  diagnostics.push({
    severity: 'warning',
    file,
    line: read.line,
    message: `\`${path.basename(found.path)}\` cannot be read as data (${read.message}); its navigation is not used`,
    hint: 'kbsync parses this file and never runs it: fix the syntax, or write the sidebar as a literal value',
    rule: 'navigation-config'
  })
  return undefined
}

function relativeFile(root: string, absolute: string): string {
  return path.relative(root, absolute).split(path.sep).join('/')
}

function starlightSite(root: string, dir: string, astro: Found, diagnostics: Diagnostic[]): SiteNavigation | undefined {
  const file = relativeFile(root, astro.path)
  const read = exported(astro, file, diagnostics)
  if (!read) return undefined
  const config = readStarlight(read.value, file, read.lineOf, diagnostics)
  if (!config) return undefined
  const docs = path.join(dir, starlightDocsDir)
  const trees: SiteTree[] =
    config.locales.length === 0
      ? [{isDefault: true, base: docs}]
      : config.locales.map((locale, index) => ({locale, isDefault: index === 0, base: path.join(docs, locale.folder)}))
  return {
    file,
    source: path.basename(astro.path),
    naming: 'slug',
    ...(config.sidebar ? {items: config.sidebar} : {}),
    trees,
    siteDir: dir,
    staticDirs: [path.join(dir, 'public')],
    folderTitles: config.folderTitles
  }
}

async function docusaurusSite(
  root: string,
  dir: string,
  found: {sidebars: Found | undefined; docusaurus: Found | undefined; top: string},
  diagnostics: Diagnostic[]
): Promise<SiteNavigation> {
  const configFile = found.docusaurus ? relativeFile(root, found.docusaurus.path) : undefined
  const configRead = found.docusaurus ? exported(found.docusaurus, configFile!, diagnostics) : undefined
  const config = readDocusaurusConfig(configRead?.value)
  const docs = path.join(dir, config.docsDir)
  const trees: SiteTree[] =
    config.locales.length === 0
      ? [{isDefault: true, base: docs}]
      : config.locales.map((locale, index) => ({
          locale,
          isDefault: index === 0,
          base: index === 0 ? docs : path.join(dir, locale.folder)
        }))
  // The preset's `sidebarPath` names the sidebars file (`false`: none, the folders give the order).
  const named = typeof config.sidebarPath === 'string' ? path.resolve(dir, config.sidebarPath) : undefined
  const sidebarsFile =
    config.sidebarPath === false
      ? undefined
      : named !== undefined && named !== found.sidebars?.path && isInside(found.top, named)
        ? ((await readFirst(path.dirname(named), [path.basename(named)], found.top)) ?? found.sidebars)
        : found.sidebars
  const navigation = sidebarsFile ?? found.docusaurus ?? found.sidebars!
  const file = relativeFile(root, navigation.path)
  const site: SiteNavigation = {
    file,
    source: path.basename(navigation.path),
    naming: 'doc-id',
    trees,
    siteDir: dir,
    staticDirs: [path.join(dir, 'static')]
  }
  if (sidebarsFile) {
    const read = exported(sidebarsFile, file, diagnostics)
    const sidebars = read ? readSidebars(read.value, file, read.lineOf, diagnostics) : []
    for (const locale of config.locales.slice(1)) {
      const folder = path.join(dir, 'i18n', locale.code, 'docusaurus-plugin-content-docs')
      const messages = await readFirst(folder, ['current.json'], found.top)
      if (messages) translateSidebars(sidebars, locale.code, translationMessages(jsonValue(messages.text)))
    }
    if (read) site.items = sidebarItems(sidebars, config.sidebarLabels)
  }
  return site
}

/**
 * One sidebar's items as they are; several sidebars (a site's guides, its
 * API reference) a group each, in the file's order, titled by the navbar
 * label the config gives it, else by its id.
 */
function sidebarItems(sidebars: Sidebar[], labels: ReadonlyMap<string, string>): SiteItem[] {
  if (sidebars.length === 1) return sidebars[0]!.items
  return sidebars.map((sidebar) => ({
    kind: 'group',
    label: labels.get(sidebar.id) ?? sidebar.id,
    items: sidebar.items,
    line: sidebar.line
  }))
}

/**
 * A Hugo site whose languages live in folders of their own; undefined
 * otherwise (a `config.toml` of another tool says nothing of languages).
 */
async function hugoSite(root: string, dir: string, top: string): Promise<SiteNavigation | undefined> {
  const keys = new Map<string, unknown>()
  const found = await readFirst(dir, hugoConfigNames, top)
  if (found) for (const [key, value] of configKeys(found)) keys.set(key, value)
  const split = path.join(dir, 'config', '_default')
  const main = await readFirst(split, hugoConfigNames, top)
  if (main) for (const [key, value] of configKeys(main)) keys.set(key, value)
  const languages = await readFirst(split, ['languages.toml', 'languages.yaml', 'languages.yml', 'languages.json'], top)
  if (languages) for (const [key, value] of configKeys(languages)) keys.set(`languages.${key}`, value)
  const locales = hugoLocales(keys)
  const file = found ?? main ?? languages
  if (locales.length === 0 || !file) return undefined
  const trees = locales.map((locale, index) => ({locale, isDefault: index === 0, base: path.join(dir, locale.folder)}))
  return {
    file: relativeFile(root, file.path),
    source: path.basename(file.path),
    naming: 'slug',
    trees,
    siteDir: dir,
    staticDirs: [path.join(dir, 'static'), path.join(dir, 'assets')]
  }
}

/** The scalar keys of a Hugo configuration file, by dotted path; none when it cannot be read. */
function configKeys(found: Found): Map<string, unknown> {
  if (found.path.endsWith('.toml')) return readTomlKeys(found.text)
  if (found.path.endsWith('.json')) return flattenKeys(jsonValue(found.text))
  const read = readYaml(found.text)
  return read.ok ? flattenKeys(read.data) : new Map()
}

/** A JSON text's value; undefined when it is no JSON. */
function jsonValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
