/**
 * End-to-end on documentation trees written for Docusaurus, Jekyll, GitHub,
 * MkDocs, Hugo/Docsy, Starlight and mdBook: our small sites
 * (`test/fixtures/sites/`) always, and the real trees of
 * `../shared/corpora/` when they are there. Each is pushed as its authors
 * wrote it, in a repository of its own, to the real local server, and what
 * readers would see is checked in the stored bodies.
 */
import {mkdtemp, readdir, readFile, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import type {Nodes} from 'mdast'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {parse as parseYaml} from 'yaml'
import {parseKb} from '../../src/dialect/index.js'
import {loadState} from '../../src/local/state.js'
import {remoteTarget} from '../../src/local/state-target.js'
import {useLocalServer} from './local-server.js'
import {allTrees, copyTree, type DocsTree} from './docs-sites.js'
import {bodyOf, cli} from './push-helpers.js'

// Our sites always; the real trees beside the checkout (or at KBSYNC_CORPORA) when they are there.
const trees = allTrees()

/** Element and component names that must never reach a reader as tag text. */
const knownTag =
  /<\/?(?:img|a|br|span|div|p|kbd|samp|var|sup|sub|b|strong|i|em|s|del|u|code|center|figure|figcaption|picture|source|table|thead|tbody|tr|td|th|ul|ol|li|details|summary|video|iframe|h[1-6]|script|style|[A-Z][A-Za-z]*)(?=[\s>/])/
/**
 * Docs-site syntax that must be converted, never shown: admonitions, mdBook
 * and Hugo and Liquid tags, MDX statements and expression props, MkDocs
 * attribute lists, icons and snippets.
 */
const siteSyntax =
  /^:::|^!!! |^\?\?\?|\{\{#|\{\{[<%]|\{%|^import .+ from ['"]|^export (?:const|default|function) |=\{|\{:?[ \t]*[.#][\w-]+[^}\n]*\}|:(?:material|fontawesome|octicons|simple)-[\w-]+:|--8<--/m

const local = useLocalServer()
const folders: string[] = []

afterAll(async () => {
  for (const dir of folders) await rm(dir, {recursive: true, force: true})
})

/** The tree as `docs/` of a repository of its own (root-relative links resolve against the repository). */
async function repositoryWith(tree: DocsTree): Promise<string> {
  const repo = await mkdtemp(path.join(tmpdir(), 'kbsync-corpus-'))
  folders.push(repo)
  return copyTree(tree, repo, 'docs')
}

/** What a reader sees as text: text nodes outside code. */
function visibleTexts(node: Nodes, out: string[] = []): string[] {
  if (node.type === 'text') out.push(node.value)
  else if (node.type === 'html') out.push(node.value)
  if ('children' in node) for (const child of node.children as Nodes[]) visibleTexts(child, out)
  return out
}

/**
 * Whether the author wrote `tag` to be read as text: as entities
 * (`&lt;Name&gt;`), escaped (`\\<Name`), or in an image's alt text, which a
 * broken image published with `--broken-links=warn` shows.
 */
function writtenAsText(source: string, tag: string): boolean {
  const name = tag.replace(/^<\/?/, '')
  return (
    source.includes(`&lt;${name}`) || source.includes(`\\<${name}`) || new RegExp(`!\\[[^\\]]*<${name}`).test(source)
  )
}

/** Whether an article took its title from its file name, for want of a front matter title, a navigation entry or a heading. */
function titledByFileName({path: file, title, source}: {path: string; title: string; source: string}): boolean {
  if (title !== path.posix.basename(file).replace(/\.mdx?$/, '')) return false
  const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return !new RegExp(`^(?:title:\\s*['"]?|#+\\s+)${escaped}`, 'm').test(source)
}

/** The documents under `dir` (`.md`/`.mdx`, dot-folders aside), folder-relative. */
async function documentsUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, {recursive: true, withFileTypes: true})
  return entries
    .filter((entry) => entry.isFile() && /\.mdx?$/i.test(entry.name))
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !file.split('/').some((part) => part.startsWith('.')))
}

/** The front matter of a document as data (empty when it has none or it does not parse). */
function frontMatterOf(source: string): Record<string, unknown> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source)
  try {
    const data: unknown = match ? parseYaml(match[1]!) : undefined
    return data && typeof data === 'object' ? (data as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/**
 * Whether the documented rules leave `file` out (docs/sync.md): partials,
 * navigation files, drafts, headless bundles and the pages a site makes
 * itself (redirect stubs, pages not rendered, a layout or template with no
 * text of its own).
 */
function leftOutByRule(file: string, source: string, headless: readonly string[]): boolean {
  const name = path.posix.basename(file)
  if ((name.startsWith('_') && name !== '_index.md') || name === 'SUMMARY.md') return true
  if (headless.some((bundle) => file.startsWith(`${bundle}/`))) return true
  const head = frontMatterOf(source)
  if (head.draft === true || head.headless === true) return true
  const body = source.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n?/, '').replace(/<!--[\s\S]*?-->/g, '')
  if (body.trim() !== '') return false
  const render = (head._build ?? head.build) as {render?: unknown} | undefined
  return (
    ['redirect', 'redirect_to', 'redirect_url', 'redirectTo', 'redirect_from', 'redirects', 'layout', 'template'].some(
      (key) => key in head
    ) ||
    render?.render === 'never' ||
    render?.render === false
  )
}

/**
 * Whether `file` is published: as an article, or as the body of a topic
 * (its folder's index, or a file named like a folder beside it); the root
 * folder's index is the configured root's, which is never written.
 */
function publishedAs(file: string, published: ReadonlySet<string>): boolean {
  if (published.has(file)) return true
  const folder = path.posix.dirname(file)
  const isIndex = /^(?:_index|index|readme)\.mdx?$/i.test(path.posix.basename(file))
  const ownName = path.posix.basename(folder) === path.posix.basename(file).replace(/\.mdx?$/i, '')
  if (isIndex || ownName) return folder === '.' || published.has(folder)
  // A file named like a folder beside it (`FAQ.md` beside `faq/`, in any case) is that folder's body.
  const beside = file.replace(/\.mdx?$/i, '').toLowerCase()
  return [...published].some((item) => item.toLowerCase() === beside)
}

/** Every image url of a body. */
function imageUrls(node: Nodes, out: string[] = []): string[] {
  if (node.type === 'image') out.push(node.url)
  if ('children' in node) for (const child of node.children as Nodes[]) imageUrls(child, out)
  return out
}

describe.each(trees.map((tree) => [tree.name, tree] as const))('the docs tree %s', (name, tree) => {
  let dir: string
  let root: string
  let first: Awaited<ReturnType<typeof cli>>
  let stored: Array<{path: string; title: string; body: string; source: string; tree: Nodes}>

  beforeAll(async () => {
    dir = await repositoryWith(tree)
    const {client, env} = local
    root = (await client.createItem({type: 'topic', title: name, parent_topic_id: null})).id
    first = await cli(['push', dir, '--root-topic', root, '--broken-links=warn'], env)
    const {state} = await loadState(dir, root, remoteTarget(env.KBSYNC_API_URL!))
    // Read at once (the client bounds what is in flight), each body parsed once: the checks below read the same trees.
    const entries = Object.entries(state.items).filter(([, {id}]) => id)
    stored = await Promise.all(
      entries.map(async ([file, {id}]) => {
        const item = await local.client.getItem(id!)
        const source = item.type === 'article' ? await readFile(path.join(dir, file), 'utf8') : ''
        const body = bodyOf(item)
        return {path: file, title: item.title, body, source, tree: parseKb(body) as Nodes}
      })
    )
  }, 300_000)

  it('pushes with no edit', () => {
    expect(first.err).not.toMatch(/^(?:[^\s:]+:(?:\d+:)*\s*)?error\b/m)
    expect(first.code).toBe(0)
    // Our sites hold a handful of documents each, the real trees dozens.
    expect(stored.length).toBeGreaterThan(tree.own ? 4 : 20)
  })

  it('publishes every document but those a documented rule leaves out', async () => {
    const published = new Set(stored.map(({path: file}) => file))
    const sources = new Map<string, string>()
    for (const file of await documentsUnder(dir)) sources.set(file, await readFile(path.join(dir, file), 'utf8'))
    const headless = [...sources]
      .filter(([file, source]) => /(?:^|\/)index\.mdx?$/.test(file) && frontMatterOf(source).headless === true)
      .map(([file]) => path.posix.dirname(file))
    const missing = [...sources]
      .filter(([file]) => !publishedAs(file, published))
      .filter(([file, source]) => !leftOutByRule(file, source, headless))
      .map(([file]) => file)
    expect(missing).toEqual([])
  })

  it('shows no tag and no docs-site syntax as text', () => {
    const shown: string[] = []
    for (const {path: file, source, tree} of stored) {
      const text = visibleTexts(tree).join('\n')
      for (const [tag] of text.matchAll(new RegExp(knownTag, 'g'))) {
        if (!writtenAsText(source, tag)) shown.push(`${file}: ${tag}`)
      }
      const syntax = siteSyntax.exec(text)
      if (syntax) shown.push(`${file}: ${syntax[0]}`)
    }
    expect(shown).toEqual([])
  })

  it('uploads every local image', () => {
    const local = stored.flatMap(({path: file, tree}) =>
      imageUrls(tree)
        .filter((url) => !/^(?:[0-9a-f-]{36}|https?:)/i.test(url))
        .map((url) => `${file}: ${url}`)
    )
    expect(local).toEqual([])
  })

  it('titles under 5% of the articles by their file name', () => {
    const articles = stored.filter(({path: file}) => /\.mdx?$/.test(file))
    const byName = articles.filter(titledByFileName)
    expect(byName.length / articles.length).toBeLessThan(0.05)
  })

  it('prints at most one warning line per document', () => {
    const lines = first.err.split('\n').filter((line) => /warning/.test(line))
    expect(lines.length).toBeLessThanOrEqual(stored.length)
  })

  it('sends zero writes on a second push', async () => {
    const before = local.server.counts().writes
    const second = await cli(['push', dir, '--root-topic', root, '--broken-links=warn'], local.env)
    expect(second.code).toBe(0)
    expect(local.server.counts().writes).toBe(before)
  }, 120_000)
})
