/**
 * Which documents a docs site never publishes, by their front matter: the
 * one place that decides it, before the layout makes topics and articles.
 * - `draft: true` (Hugo, Jekyll): a draft;
 * - `published: false` (Jekyll);
 * - `_build` / `build` with `render: never` (or `false`) (Hugo): no page;
 * - `headless: true` on a page bundle's `index.md` (Hugo): the bundle has no
 *   page, nor have the documents beside and under it (its files stay
 *   readable: an include or `readfile` may still take them).
 * Each kind is said in one info line that counts the documents.
 */
import path from 'node:path'
import type {Diagnostic} from './diagnostic.js'
import type {FrontMatter} from './front-matter.js'

/** Why a document is not published. */
export type Unpublished = 'draft' | 'headless' | 'build'

/** What the front matter `record` says about publishing (for `FrontMatter.unpublished`). */
export function publishRulesOf(record: Record<string, unknown>): {unpublished?: Unpublished} {
  if (record.headless === true) return {unpublished: 'headless'}
  if (record.draft === true || record.published === false) return {unpublished: 'draft'}
  for (const key of ['_build', 'build']) {
    const build = record[key]
    if (build && typeof build === 'object' && !Array.isArray(build)) {
      const render = (build as Record<string, unknown>).render
      if (render === 'never' || render === false) return {unpublished: 'build'}
    }
  }
  return {}
}

/**
 * The documents of `files` (repo-relative, `/`) that are not published,
 * with one info line per kind on `diagnostics`; `frontMatterOf` reads a
 * document's front matter.
 */
export function unpublishedDocuments(
  files: readonly string[],
  frontMatterOf: (file: string) => FrontMatter,
  diagnostics: Diagnostic[]
): Set<string> {
  const found: Record<Unpublished, string[]> = {draft: [], headless: [], build: []}
  const bundles: string[] = []
  for (const file of files) {
    const reason = frontMatterOf(file).unpublished
    if (!reason) continue
    found[reason].push(file)
    // Only a leaf bundle's `index.md` is headless in Hugo; its folder goes whole.
    if (reason === 'headless' && /^index\.mdx?$/i.test(path.posix.basename(file)))
      bundles.push(path.posix.dirname(file))
  }
  const unpublished = new Set([...found.draft, ...found.headless, ...found.build])
  for (const file of files) {
    if (unpublished.has(file)) continue
    const bundle = bundles.find((folder) => folder === '.' || file.startsWith(folder + '/'))
    if (bundle !== undefined) {
      unpublished.add(file)
      found.headless.push(file)
    }
  }
  report(found, diagnostics)
  return unpublished
}

const wording: Record<Unpublished, {one: string; what: string; hint: string; rule: string}> = {
  draft: {
    one: 'draft (`draft: true` or `published: false`)',
    what: 'drafts (`draft: true` or `published: false`)',
    hint: 'Remove `draft: true` (or `published: false`) to publish a draft',
    rule: 'draft-skipped'
  },
  headless: {
    one: 'document of a headless bundle (`headless: true` in the bundle’s index.md), which the site never shows as a page',
    what: 'documents of headless bundles (`headless: true` in the bundle’s index.md), which the site never shows as pages',
    hint: 'Remove `headless: true` to publish the bundle',
    rule: 'headless-skipped'
  },
  build: {
    one: 'document the site does not render (`_build` / `build` with `render: never`)',
    what: 'documents the site does not render (`_build` / `build` with `render: never`)',
    hint: 'Remove the `render: never` setting to publish them',
    rule: 'build-skipped'
  }
}

function report(found: Record<Unpublished, string[]>, diagnostics: Diagnostic[]): void {
  for (const reason of Object.keys(found) as Unpublished[]) {
    const files = found[reason]
    if (files.length === 0) continue
    const {one, what, hint, rule} = wording[reason]
    const named = files.slice(0, 5).join(', ') + (files.length > 5 ? ` and ${files.length - 5} more` : '')
    diagnostics.push({
      severity: 'info',
      file: files[0]!,
      message: `${files.length} ${files.length === 1 ? one : what} not published: ${named}`,
      hint,
      rule
    })
  }
}
