/**
 * Which document a link names, in the forms real documentation trees write
 * links: the file itself (`guide.md`), the page a site generator makes of
 * it (`guide.html`, mdBook), the page without extension or as a folder
 * (`../guide`, `guide/`, Docusaurus and most sites), and the addresses a
 * file's front matter gives it (Docusaurus `id` and `slug`, Jekyll and
 * Hugo `permalink` / `url`). Pure: the index is built from what the scan
 * found, and lookups read only it.
 */
import path from 'node:path'
import {documentExtensions} from './file-names.js'
import type {LinkRef} from './types.js'

/** The addresses a docs site gives a page, from its front matter. */
export interface SiteAddresses {
  /** Docusaurus `id`: replaces the file name in the doc id (folder path + id). */
  id?: string
  /** Docusaurus or Hugo `slug`: the page's address, from the site root when it starts with `/`, else from its folder. */
  slug?: string
  /** Jekyll `permalink` or Hugo `url`: the page's address from the site root. */
  permalink?: string
}

/** The documents of a folder, by every address a link may name them with. */
export interface LinkTargets {
  /** Articles by file path (`x.md`, `x.mdx`). */
  articles: Set<string>
  /** Topics by folder path (`''` is the root). */
  topics: Set<string>
  /** Documents by normalised site address (`addressKey`): doc ids, slugs, permalinks. */
  addresses: Map<string, LinkRef>
  /** The site address of a page, by file, when its front matter gives one: relative links are read against it too. */
  pages: Map<string, string>
  /** Files that hold a topic's body (`dir/_index.md`), by file: a link to one is a link to the topic. */
  topicFiles: Map<string, string>
}

const pageExtension = /\.html?$/i
/** The number prefix Docusaurus drops from file and folder names in doc ids (`01-intro`, `2_setup`): the one rule for links and navigation. */
export const numberPrefix = /^\d+\s*[-_.]+\s*(?=[^-_.\s])/
const indexName = /^(?:index|readme)$/i

/**
 * Reads the page addresses of a front matter mapping: `slug`, and
 * `permalink` (or Hugo's `url` when it is a path). Only non-empty strings
 * (or numbers) are addresses; other values are left alone, as the site
 * generator would fail on them itself. (`id` is read with the navigation
 * keys.)
 */
export function pageAddressesOf(record: Readonly<Record<string, unknown>>): Pick<SiteAddresses, 'slug' | 'permalink'> {
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' && value.trim() !== ''
      ? value.trim()
      : typeof value === 'number'
        ? String(value)
        : undefined
  const slug = text(record.slug)
  // Hugo's `url` is the page's address only when it is a path; a full URL is somewhere else.
  const permalink = text(record.permalink) ?? (text(record.url)?.startsWith('/') ? text(record.url) : undefined)
  return {...(slug !== undefined ? {slug} : {}), ...(permalink !== undefined ? {permalink} : {})}
}

/**
 * The key a site address is looked up by: decoded, without the slashes at
 * either end, without a trailing `.html` or `index.html`, lower case (sites
 * serve these paths case-insensitively often enough that authors mix case).
 */
export function addressKey(address: string): string {
  let key = address
  try {
    key = decodeURIComponent(key)
  } catch {
    // Keep it as written.
  }
  key = key.replace(/^\/+|\/+$/g, '').replace(pageExtension, '')
  key = key.replace(/(?:^|\/)index$/i, '')
  return key.toLowerCase()
}

/** An empty index over `articles` and `topics` (the scan's own sets, filled as it goes). */
export function emptyLinkTargets(articles: Set<string>, topics: Set<string>): LinkTargets {
  return {articles, topics, addresses: new Map(), pages: new Map(), topicFiles: new Map()}
}

/**
 * Records the addresses of the document held by `file` (an article's file,
 * or a topic's `_index.md`): its Docusaurus doc id and route, and the slug
 * and permalink of its front matter. A first document keeps an address
 * another one claims too.
 */
export function recordDocument(
  targets: LinkTargets,
  file: string,
  document: LinkRef,
  addresses: SiteAddresses = {}
): void {
  const docFolder = folderOf(file)
    .split('/')
    .map((part) => part.replace(numberPrefix, ''))
    .join('/')
  const name =
    addresses.id ??
    path.posix
      .basename(file)
      .replace(/\.mdx?$/i, '')
      .replace(numberPrefix, '')
  const add = (address: string) => {
    const key = addressKey(address)
    if (!targets.addresses.has(key)) targets.addresses.set(key, document)
  }
  add(joinAddress(docFolder, name))
  if (indexName.test(name)) add(docFolder)
  if (addresses.slug !== undefined)
    add(addresses.slug.startsWith('/') ? addresses.slug : joinAddress(docFolder, addresses.slug))
  if (addresses.permalink !== undefined) add(addresses.permalink)
  const page = addresses.permalink ?? (addresses.slug?.startsWith('/') ? addresses.slug : undefined)
  if (page !== undefined) targets.pages.set(file, page)
  if (document.kind === 'topic') targets.topicFiles.set(file, document.target)
}

function joinAddress(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`
}

/**
 * The document a folder-relative path names (no leading or trailing slash,
 * `''` for the folder itself), in this order: the document file itself; a
 * page `x.html` for `x.md` or `x.mdx`; without extension `x.md`, `x.mdx`,
 * `x/index.md`, `x/index.mdx`, `x/README.md`, `x/_index.md` or the folder
 * `x` as a topic; then a site address (doc id, slug, permalink).
 */
export function documentAt(targets: LinkTargets, candidate: string): LinkRef | undefined {
  const exact = documentFile(targets, candidate)
  if (exact) return exact
  const extension = path.posix.extname(candidate).toLowerCase()
  if ((documentExtensions as readonly string[]).includes(extension)) {
    // `x.md` written for `x.mdx` (Docusaurus accepts either), and the other way round.
    const stem = candidate.slice(0, -extension.length)
    for (const other of documentExtensions)
      if (other !== extension && targets.articles.has(stem + other)) return {target: stem + other, kind: 'article'}
    return undefined
  }
  const stem = pageExtension.test(candidate)
    ? candidate.replace(pageExtension, '')
    : extension === ''
      ? candidate
      : undefined
  if (stem === undefined) return undefined
  const page = pageForms(targets, stem)
  if (page) return page
  if (path.posix.basename(stem).toLowerCase() === 'index') {
    const inFolder = pageForms(targets, folderOf(stem))
    if (inFolder) return inFolder
  }
  return documentAtAddress(targets, stem)
}

/** The document a site address names (`/docs/variables/`, `faq/organizing-state`), by the front matter and doc ids recorded. */
export function documentAtAddress(targets: LinkTargets, address: string): LinkRef | undefined {
  const found = targets.addresses.get(addressKey(address))
  return found ? {...found} : undefined
}

/** The document file `candidate` is, when it is one (the file of a topic's body names the topic). */
function documentFile(targets: LinkTargets, candidate: string): LinkRef | undefined {
  if (targets.articles.has(candidate)) return {target: candidate, kind: 'article'}
  const topic =
    targets.topicFiles.get(candidate) ??
    (path.posix.basename(candidate) === '_index.md' ? folderOf(candidate) : undefined)
  return topic !== undefined && targets.topics.has(topic) ? {target: topic, kind: 'topic'} : undefined
}

/** The folder of a folder-relative path (`''` at the top). */
function folderOf(file: string): string {
  const folder = path.posix.dirname(file)
  return folder === '.' ? '' : folder
}

/** The document an extensionless page path `stem` names: a file of it, an index page of its folder, or the folder. */
function pageForms(targets: LinkTargets, stem: string): LinkRef | undefined {
  const inside = (name: string) => (stem === '' ? name : `${stem}/${name}`)
  const files = stem === '' ? [] : documentExtensions.map((extension) => stem + extension)
  for (const file of [...files, inside('index.md'), inside('index.mdx'), inside('README.md'), inside('_index.md')]) {
    const found = documentFile(targets, file)
    if (found) return found
  }
  return targets.topics.has(stem) ? {target: stem, kind: 'topic'} : undefined
}
