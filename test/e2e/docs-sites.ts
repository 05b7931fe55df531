/**
 * The docs trees the corpus-driven suites run on: the small sites of our
 * own in `test/fixtures/sites/` (always, so a fresh clone tests the same
 * paths), and the real corpora of `../shared/corpora` (or
 * `KBSYNC_CORPORA`) when they are there.
 */
import {existsSync} from 'node:fs'
import {cp, mkdir, readdir, readFile} from 'node:fs/promises'
import path from 'node:path'

/** Where the real corpora are looked for: beside the checkout in the project's workspace, or `KBSYNC_CORPORA`. */
export const corporaRoot = process.env.KBSYNC_CORPORA ?? path.resolve(import.meta.dirname, '../../../shared/corpora')

/** The sites written for the tests, one per docs format. */
export const sitesRoot = path.resolve(import.meta.dirname, '../fixtures/sites')

/** A docs tree: where it is, and the folder of it a user pushes (its content folder; configuration may sit above). */
export interface DocsTree {
  /** `site:<format>` for a site of ours, the corpus's folder name for a real one. */
  name: string
  /** The tree's folder (a repository's top). */
  source: string
  /** The pushed folder, relative to `source`. */
  sub: string
  /** Whether it is a small site of ours (the real trees are larger: their size checks differ). */
  own: boolean
}

/** Our site of `format` (a folder of `test/fixtures/sites/`). */
export function site(format: string, sub: string): DocsTree {
  return {name: `site:${format}`, source: path.join(sitesRoot, format), sub, own: true}
}

/** The real corpus `name`, or undefined when the corpora are not there. */
export function corpus(name: string, sub: string): DocsTree | undefined {
  const source = path.join(corporaRoot, name)
  return existsSync(source) ? {name, source, sub, own: false} : undefined
}

/** Our sites, one per format, with their pushed folders. */
export const ownSites = {
  docusaurus: site('docusaurus', 'docs'),
  jekyll: site('jekyll', '.'),
  github: site('github', 'docs'),
  mkdocs: site('mkdocs', '.'),
  hugo: site('hugo', 'content/en'),
  starlight: site('starlight', 'src/content/docs'),
  mdbook: site('mdbook', 'src')
} as const

/** The real corpora and their pushed folders (README of the corpora). */
export const corpusFolders: Readonly<Record<string, string>> = {
  'redux-docs': '.',
  'jekyll-docs': '.',
  'gemini-cli-docs': '.',
  'mkdocs-docs': '.',
  'docsy-docs': 'docsy.dev/content/en',
  'biome-docs': 'src/content/docs',
  'rust-by-example': 'src'
}

/** Our sites and the corpora present, in that order. */
export function allTrees(): DocsTree[] {
  const real = Object.entries(corpusFolders).map(([name, sub]) => corpus(name, sub))
  return [...Object.values(ownSites), ...real.filter((tree) => tree !== undefined)]
}

/** Copies `tree` into the repository `repo` (made one: a `.git` folder), at `into` below it; returns the pushed folder. */
export async function copyTree(tree: DocsTree, repo: string, into = '.'): Promise<string> {
  await mkdir(path.join(repo, '.git'), {recursive: true})
  await cp(tree.source, path.join(repo, into), {recursive: true})
  return path.join(repo, into, tree.sub)
}

/** Every file under `dir` (the state folder aside) with its text. */
export async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {}
  for (const entry of await readdir(dir, {recursive: true, withFileTypes: true})) {
    const file = path.relative(dir, path.join(entry.parentPath, entry.name))
    if (entry.isFile() && !file.startsWith('.kbsync')) files[file] = await readFile(path.join(dir, file), 'utf8')
  }
  return files
}
