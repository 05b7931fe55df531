/**
 * End-to-end on real documentation trees (`../shared/corpora/`, written for
 * Docusaurus, Jekyll and GitHub): each is pushed as its authors wrote it, in
 * a repository of its own, to the real local server, and what readers would
 * see is checked in the stored bodies.
 */
import {existsSync} from 'node:fs'
import {cp, mkdir, mkdtemp, readFile, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import type {Nodes} from 'mdast'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {parseKb} from '../../src/dialect/index.js'
import {loadState} from '../../src/local/state.js'
import {remoteTarget} from '../../src/local/state-target.js'
import {useLocalServer} from './local-server.js'
import {bodyOf, cli} from './push-helpers.js'

// Beside the checkout in the project's workspace; a clone elsewhere has none, and skips these tests.
const corpora = process.env.KBSYNC_CORPORA ?? path.resolve(import.meta.dirname, '../../../shared/corpora')
const trees = ['redux-docs', 'jekyll-docs', 'gemini-cli-docs'].filter((name) => existsSync(path.join(corpora, name)))

/** Element and component names that must never reach a reader as tag text. */
const knownTag =
  /<\/?(?:img|a|br|span|div|p|kbd|samp|var|sup|sub|b|strong|i|em|s|del|u|code|center|figure|figcaption|picture|source|table|thead|tbody|tr|td|th|ul|ol|li|details|summary|video|iframe|h[1-6]|script|style|[A-Z][A-Za-z]*)(?=[\s>/])/
/** Docs-site syntax that must be converted, never shown. */
const siteSyntax = /^:::|^!!! |^\?\?\?|\{\{#|^import .+ from ['"]|^export (?:const|default|function) /m

const local = useLocalServer()
const folders: string[] = []

afterAll(async () => {
  for (const dir of folders) await rm(dir, {recursive: true, force: true})
})

/** The tree as `docs/` of a repository of its own (root-relative links resolve against the repository). */
async function repositoryWith(name: string): Promise<string> {
  const repo = await mkdtemp(path.join(tmpdir(), 'kbsync-corpus-'))
  folders.push(repo)
  await mkdir(path.join(repo, '.git'))
  const docs = path.join(repo, 'docs')
  await cp(path.join(corpora, name), docs, {recursive: true})
  return docs
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

/** Every image url of a body. */
function imageUrls(node: Nodes, out: string[] = []): string[] {
  if (node.type === 'image') out.push(node.url)
  if ('children' in node) for (const child of node.children as Nodes[]) imageUrls(child, out)
  return out
}

describe.skipIf(trees.length > 0)(`the real trees (none found at ${corpora}; set KBSYNC_CORPORA)`, () => {
  it.skip('push as written', () => undefined)
})

describe.each(trees)('the real tree %s', (name) => {
  let dir: string
  let root: string
  let first: Awaited<ReturnType<typeof cli>>
  let stored: Array<{path: string; title: string; body: string; source: string}>

  beforeAll(async () => {
    dir = await repositoryWith(name)
    const {client, env} = local
    root = (await client.createItem({type: 'topic', title: name, parent_topic_id: null})).id
    first = await cli(['push', dir, '--root-topic', root, '--broken-links=warn'], env)
    const {state} = await loadState(dir, root, remoteTarget(env.KBSYNC_API_URL!))
    stored = []
    for (const [file, {id}] of Object.entries(state.items)) {
      if (!id) continue
      const item = await local.client.getItem(id)
      const source = item.type === 'article' ? await readFile(path.join(dir, file), 'utf8') : ''
      stored.push({path: file, title: item.title, body: bodyOf(item), source})
    }
  }, 300_000)

  it('pushes with no edit', () => {
    expect(first.err).not.toMatch(/\berror\b/)
    expect(first.code).toBe(0)
    expect(stored.length).toBeGreaterThan(50)
  })

  it('shows no tag and no docs-site syntax as text', () => {
    const shown: string[] = []
    for (const {path: file, body, source} of stored) {
      const text = visibleTexts(parseKb(body) as Nodes).join('\n')
      for (const [tag] of text.matchAll(new RegExp(knownTag, 'g'))) {
        if (!writtenAsText(source, tag)) shown.push(`${file}: ${tag}`)
      }
      const syntax = siteSyntax.exec(text)
      if (syntax) shown.push(`${file}: ${syntax[0]}`)
    }
    expect(shown).toEqual([])
  })

  it('uploads every local image', () => {
    const local = stored.flatMap(({path: file, body}) =>
      imageUrls(parseKb(body) as Nodes)
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
