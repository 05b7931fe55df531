/**
 * Trees of other shapes for the scale benchmark (issue 32: "acceptance runs
 * trees of other shapes that you will not see"). Each shape places about
 * `items` realistic articles (`articleBody` of `scale-tree.ts`) differently:
 * all in one topic, in many small topics, under very long titles, with
 * hundreds of links each, one huge article among small ones, many images,
 * a deep folder nest, every article of one title, a table of 20,000 rows
 * among small articles, a chain of links from each article to the next,
 * file names of 255 bytes, a list of 50,000 items among small articles, a
 * hub article linking to every other, articles of 300 KB, and one article
 * just under the size a body is parsed within.
 */
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {seededRandom} from '../src/server/random.js'
import {articleBody, pngBytes} from './scale-tree.js'

/** One article of a shape: where it lives, its title, whom it links to, how many images it shows. */
interface ArticleSpec {
  /** Posix folder relative to the tree's root ('' for the root). */
  folder: string
  name: string
  /** A front matter title (else the article's heading names it). */
  title?: string
  /** Indexes of the articles it links to. */
  links: number[]
  images: number
  /** Bytes to pad the body to (the body repeated). */
  padTo?: number
  /** Rows of a three-column table appended to the body. */
  tableRows?: number
  /** Items of a tight one-line list appended to the body. */
  listItems?: number
}

/** One topic folder of a shape and its title. */
interface TopicSpec {
  folder: string
  title: string
}

/** A shape's layout: plain data a writer turns into files. */
interface Layout {
  topics: TopicSpec[]
  articles: ArticleSpec[]
}

/** What `generateShape` wrote. */
export interface ShapeTree {
  shape: ShapeName
  articles: number
  topics: number
  images: number
  links: number
  bytes: number
}

/** YAML front matter naming `title` (a JSON string is a valid YAML scalar, whatever it holds). */
const frontMatter = (title: string) => `---\ntitle: ${JSON.stringify(title)}\n---\n\n`

/** The relative link from article `from` to article `to`. */
function link(from: ArticleSpec, to: ArticleSpec): string {
  const target = to.folder === '' ? to.name : `${to.folder}/${to.name}`
  return path.posix.relative(from.folder === '' ? '.' : from.folder, target)
}

/** Writes `layout` under `dir`: topics with a `_index.md` each, then the articles 64 at a time. */
async function writeLayout(dir: string, shape: ShapeName, layout: Layout, seed: number): Promise<ShapeTree> {
  const next = seededRandom(seed)
  for (const topic of layout.topics) {
    await mkdir(path.join(dir, topic.folder), {recursive: true})
    await writeFile(path.join(dir, topic.folder, '_index.md'), `${frontMatter(topic.title)}About ${topic.title}.\n`)
  }
  const tree: ShapeTree = {shape, articles: 0, topics: layout.topics.length, images: 0, links: 0, bytes: 0}
  const batch: Array<Promise<void>> = []
  for (const [i, article] of layout.articles.entries()) {
    const folder = path.join(dir, article.folder)
    const links = article.links.map((to) => link(article, layout.articles[to]!))
    const images: string[] = []
    for (let n = 0; n < article.images; n++) {
      images.push(`img/figure-${i}-${n}.png`)
      await mkdir(path.join(folder, 'img'), {recursive: true})
      batch.push(writeFile(path.join(folder, images[n]!), pngBytes(i * 100 + n)))
    }
    let body = articleBody(i, links, images[0], next)
    for (const image of images.slice(1)) body += `\n![Figure ${image}](${image})\n`
    if (article.padTo !== undefined) body = padBody(body, article.padTo, next, i)
    if (article.tableRows !== undefined) body += tableOf(article.tableRows)
    if (article.listItems !== undefined) body += listOf(article.listItems)
    if (article.title !== undefined) body = frontMatter(article.title) + body
    tree.articles += 1
    tree.images += images.length
    tree.links += links.length
    tree.bytes += Buffer.byteLength(body)
    batch.push(writeFile(path.join(folder, article.name), body))
    if (batch.length >= 64) await Promise.all(batch.splice(0))
  }
  await Promise.all(batch)
  return tree
}

/** `body` grown to nearly `bytes` (never past it) with more sections of realistic text (no links: the padding costs text only). */
function padBody(body: string, bytes: number, next: () => number, i: number): string {
  const parts = [body]
  let size = Buffer.byteLength(body)
  for (let s = 0; ; s++) {
    const section = articleBody(i, [], undefined, next).replace(/^# .*$/m, `## Part ${s + 1}`)
    if (size + Buffer.byteLength(section) + 1 > bytes) return parts.join('\n')
    parts.push(section)
    size += Buffer.byteLength(section) + 1
  }
}

/** A Markdown table of `rows` rows of three short cells (a generated reference page: error codes, settings). */
function tableOf(rows: number): string {
  const lines = ['', '| Code | Value | Meaning |', '| --- | --- | --- |']
  for (let r = 0; r < rows; r++) lines.push(`| E${r} | ${r * 7} | cell ${r} text |`)
  return lines.join('\n') + '\n'
}

/** A tight list of `items` one-line items (a generated index page; plain: its platform body stays within the 2,000,000-character budget). */
function listOf(items: number): string {
  const lines = ['']
  for (let n = 0; n < items; n++) lines.push(`- item ${n} of the list`)
  return lines.join('\n') + '\n'
}

/** Links from article `i` of `count`: `perArticle` targets spread over the tree (never itself). */
function spreadLinks(i: number, count: number, perArticle: number, next: () => number): number[] {
  const targets = new Set<number>()
  targets.add((i + 1) % count)
  while (targets.size < Math.min(perArticle, count - 1)) {
    const to = Math.floor(next() * count)
    if (to !== i) targets.add(to)
  }
  targets.delete(i)
  return [...targets]
}

/** Articles `count`, `perTopic` in each folder `folderOf(t)`, with two or three links each. */
function topicsOf(count: number, perTopic: number, folderOf: (t: number) => string, next: () => number): Layout {
  const topics: TopicSpec[] = []
  const articles: ArticleSpec[] = []
  for (let i = 0; i < count; i++) {
    const t = Math.floor(i / perTopic)
    if (i % perTopic === 0) topics.push({folder: folderOf(t), title: `Topic ${t}`})
    articles.push({folder: folderOf(t), name: `page-${i}.md`, links: spreadLinks(i, count, 2, next), images: 0})
  }
  return {topics, articles}
}

// Unicode of several scripts and widths, and the punctuation Markdown, YAML and file systems care about.
const titleParts = [
  'Configuración avanzada de la réplica',
  'Настройка резервного копирования',
  '設定とデプロイの手順',
  'Überwachung & Alarme',
  'Ошибки: "quotes", [brackets], (parens)',
  'a/b \\ c | d * e _f_ #g <h> &amp; 100%',
  'Emoji 🚀📦✅ and combining é (e\u0301)',
  'مرحبا بالعالم',
  "it's — dashes – and … ellipses; colons: here"
]

/** A title of 200+ characters for article `i`; articles `i` and `i ^ 1` share all but the last characters. */
function longTitle(i: number): string {
  const parts: string[] = []
  for (let p = 0; parts.join(' · ').length < 210; p++)
    parts.push(titleParts[(Math.floor(i / 2) + p) % titleParts.length]!)
  return `${parts.join(' · ')} (${Math.floor(i / 2)}${i % 2 === 0 ? '' : '.'})`
}

/** A twelve-level nest: `chains` folder chains twelve deep, `count / (chains * 12)` articles at each level. */
function nestOf(count: number, next: () => number): Layout {
  const depth = 12
  const chains = Math.max(1, Math.round(count / (depth * 10)))
  const perLevel = Math.max(1, Math.floor(count / (chains * depth)))
  const topics: TopicSpec[] = []
  const articles: ArticleSpec[] = []
  for (let c = 0; c < chains; c++) {
    let folder = `chain-${c}`
    for (let level = 0; level < depth; level++) {
      // Every chain reuses the level names: the same titles at the same depth under other parents.
      topics.push({folder, title: `Level ${level}`})
      for (let a = 0; a < perLevel; a++) {
        const i = articles.length
        articles.push({folder, name: `page-${i}.md`, links: [], images: 0})
      }
      folder = `${folder}/level-${level + 1}`
    }
  }
  for (const [i, article] of articles.entries()) article.links = spreadLinks(i, articles.length, 2, next)
  return {topics, articles}
}

/** A file name of article `i` that takes all 255 bytes a name may: ASCII letters, or two-byte ones for odd `i`. */
function nameOf255Bytes(i: number): string {
  const room = 255 - `${i}-`.length - '.md'.length
  const stem = i % 2 === 0 ? 'a'.repeat(room) : 'é'.repeat(Math.floor(room / 2)) + 'a'.repeat(room % 2)
  return `${i}-${stem}.md`
}

/** The shapes `generateShape` knows. */
export const shapeNames = [
  'one-topic',
  'many-topics',
  'long-titles',
  'many-links',
  'big-article',
  'many-images',
  'nest-12',
  'same-title',
  'huge-table',
  'link-chain',
  'long-names',
  'huge-list',
  'hub',
  'big-articles',
  'near-budget'
] as const

/** A shape's name. */
export type ShapeName = (typeof shapeNames)[number]

/** The layout of `shape` with about `items` articles (`big-article`, `many-images` and `huge-table` scale their own counts down). */
function layoutOf(shape: ShapeName, items: number, next: () => number): Layout {
  switch (shape) {
    case 'one-topic':
      return topicsOf(items, items, () => 'all', next)
    case 'many-topics':
      return topicsOf(items, 15, (t) => `topic-${t}`, next)
    case 'long-titles': {
      const layout = topicsOf(items, 30, (t) => `topic-${t}`, next)
      for (const [i, article] of layout.articles.entries()) article.title = longTitle(i)
      // Every topic has the same long title as every other (they are cousins, not siblings).
      for (const topic of layout.topics) topic.title = longTitle(0).replace(/\(.*\)$/, '(topic)')
      return layout
    }
    case 'many-links': {
      const layout = topicsOf(items, 30, (t) => `topic-${t}`, next)
      for (const [i, article] of layout.articles.entries()) article.links = spreadLinks(i, items, 300, next)
      return layout
    }
    case 'big-article': {
      const count = Math.max(2, Math.round(items / 30))
      const layout = topicsOf(count, 30, (t) => `topic-${t}`, next)
      layout.articles[Math.floor(count / 2)]!.padTo = 5_000_000
      return layout
    }
    case 'many-images': {
      const count = Math.max(1, Math.round(items / 10))
      const layout = topicsOf(count, 30, (t) => `topic-${t}`, next)
      const images = Math.round(count * 3.34)
      for (let n = 0; n < images; n++) layout.articles[n % count]!.images += 1
      return layout
    }
    case 'nest-12':
      return nestOf(items, next)
    case 'same-title': {
      // Every article titled "Overview" (a Hugo or Starlight tree of index pages): push tells each topic's apart.
      const layout = topicsOf(items, 30, (t) => `topic-${t}`, next)
      for (const article of layout.articles) article.title = 'Overview'
      return layout
    }
    case 'link-chain': {
      // Each article links to the next alone, across topics (issue 32's must-show at 12,000): creates wait on each other.
      const layout = topicsOf(items, 30, (t) => `topic-${t}`, next)
      for (const [i, article] of layout.articles.entries()) article.links = i + 1 < items ? [i + 1] : []
      return layout
    }
    case 'long-names': {
      // File names of 255 bytes, ASCII and two-byte letters in turn: every temporary name beside them must be cut.
      const layout = topicsOf(items, 30, (t) => `topic-${t}`, next)
      for (const [i, article] of layout.articles.entries()) article.name = nameOf255Bytes(i)
      return layout
    }
    case 'huge-table': {
      const count = Math.max(2, Math.round(items / 30))
      const layout = topicsOf(count, 30, (t) => `topic-${t}`, next)
      layout.articles[Math.floor(count / 2)]!.tableRows = 20_000
      return layout
    }
    case 'huge-list': {
      const layout = topicsOf(10, 30, (t) => `topic-${t}`, next)
      layout.articles[5]!.listItems = 50_000
      return layout
    }
    case 'big-articles': {
      // Articles of 300 KB of prose, lists, quotes and tables: micromark's container exits copied every event before them.
      const layout = topicsOf(Math.max(2, Math.round(items / 100)), 30, (t) => `topic-${t}`, next)
      for (const article of layout.articles) article.padTo = 300_000
      return layout
    }
    case 'near-budget': {
      // One article of 1.9 MB, just under the 2,000,000 characters a body is parsed within (past them it is kept as text).
      const count = Math.max(2, Math.round(items / 30))
      const layout = topicsOf(count, 30, (t) => `topic-${t}`, next)
      layout.articles[Math.floor(count / 2)]!.padTo = 1_900_000
      return layout
    }
    case 'hub': {
      // One index page linking to every other article (a generated site map): each link is resolved while converting.
      const layout = topicsOf(items + 1, 30, (t) => `topic-${t}`, next)
      layout.articles[0]!.links = Array.from({length: items}, (_, i) => i + 1)
      return layout
    }
  }
}

/**
 * Writes the tree of `shape` under `dir` with about `items` articles (3,000
 * in the benchmark): `big-article` writes `items / 30` (one of 5 MB), and
 * `many-images` `items / 10` articles showing `items / 3` images, `huge-table`
 * `items / 30` (one with a table of 20,000 rows), `huge-list` 10 (one with a
 * list of 50,000 items), `hub` `items + 1` (the first linking to the others),
 * `big-articles` `items / 100` of 300 KB each, `near-budget` `items / 30`
 * (one of 1.9 MB).
 */
export async function generateShape(dir: string, shape: ShapeName, items: number): Promise<ShapeTree> {
  const next = seededRandom(items + shapeNames.indexOf(shape))
  return writeLayout(dir, shape, layoutOf(shape, items, next), items)
}
