/**
 * Generated trees for the scale benchmark (issue 32): realistic articles of
 * 2-4 KB (headings, lists, a table, code, links to other pages, 5% with an
 * image) in topics nested up to three deep, and a link chain (each page
 * linking to the next: a "next page" footer).
 */
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {seededRandom} from '../src/server/random.js'

const words = (
  'the knowledge base keeps every article in step with the folder so readers find what changed ' +
  'configure deploy monitor restore account billing invoice export import token webhook request ' +
  'answer limit retry queue worker cluster node region backup policy role member team project'
).split(' ')

/** A sentence of `count` words from `next`. */
function sentence(next: () => number, count: number): string {
  const picked: string[] = []
  for (let i = 0; i < count; i++) picked.push(words[Math.floor(next() * words.length)]!)
  const text = picked.join(' ')
  return text.charAt(0).toUpperCase() + text.slice(1) + '.'
}

/** The folder of topic `t`: `perTopic`-article topics, every fourth nested in the one before, every sixteenth a level deeper. */
function topicDir(t: number): string {
  if (t % 16 === 15) return path.join(`topic-${t - 3}`, `sub-${t - 1}`, `deep-${t}`)
  if (t % 4 === 3) return path.join(`topic-${t - 1}`, `sub-${t}`)
  return `topic-${t}`
}

/** The relative link from article `from` to article `to` (posix). */
function relativeLink(perTopic: number, from: number, to: number): string {
  const fromDir = topicDir(Math.floor(from / perTopic))
    .split(path.sep)
    .join('/')
  const toFile = `${topicDir(Math.floor(to / perTopic))
    .split(path.sep)
    .join('/')}/page-${to}.md`
  return path.posix.relative(fromDir, toFile)
}

/** One article body of 2-4 KB: `links` in a "See also" line, `image` shown at its end. */
export function articleBody(i: number, links: string[], image: string | undefined, next: () => number): string {
  const parts = [`# Page ${i}: ${sentence(next, 3).slice(0, -1)}`, '', sentence(next, 14) + ' ' + sentence(next, 12)]
  const sections = 2 + Math.floor(next() * 2)
  for (let s = 0; s < sections; s++) {
    parts.push('', `## Section ${s + 1}`, '', `${sentence(next, 18)} It uses **${words[s]}** and \`code-${i}\`.`)
    parts.push(
      '',
      `- ${sentence(next, 6)}`,
      `- ${sentence(next, 7)}`,
      `  - ${sentence(next, 5)}`,
      `- ${sentence(next, 6)}`
    )
    parts.push('', `1. ${sentence(next, 8)}`, `2. ${sentence(next, 9)}`)
  }
  parts.push('', '| Setting | Value | Note |', '| --- | --- | --- |')
  for (let r = 0; r < 4; r++) parts.push(`| key-${r} | ${Math.floor(next() * 1000)} | ${sentence(next, 4)} |`)
  parts.push('', '```js', `const page = ${i}`, `console.log('page', page, ${JSON.stringify(sentence(next, 4))})`, '```')
  parts.push('', '> ' + sentence(next, 16))
  if (links.length > 0)
    parts.push('', 'See also: ' + links.map((link, n) => `[related ${n + 1}](${link})`).join(', ') + '.')
  if (image) parts.push('', `![Figure ${i}](${image})`)
  parts.push('', sentence(next, 20) + ' ' + sentence(next, 20), '')
  return parts.join('\n')
}

/** What `generateScaleTree` wrote. */
export interface ScaleTree {
  articles: number
  topics: number
  images: number
  bytes: number
}

/**
 * Writes `articles` realistic articles in topics of `perTopic` (default 30):
 * each links to two or three other articles (one nearby, one anywhere), one
 * in twenty shows an image of its own.
 */
export async function generateScaleTree(dir: string, articles: number, perTopic = 30): Promise<ScaleTree> {
  const next = seededRandom(articles)
  const topics = Math.ceil(articles / perTopic)
  for (let t = 0; t < topics; t++) {
    await mkdir(path.join(dir, topicDir(t), 'img'), {recursive: true})
    await writeFile(path.join(dir, topicDir(t), '_index.md'), `---\ntitle: Topic ${t}\n---\n\nAbout topic ${t}.\n`)
  }
  let bytes = 0
  let images = 0
  const batch: Array<Promise<void>> = []
  for (let i = 0; i < articles; i++) {
    const t = Math.floor(i / perTopic)
    const targets = [Math.min(articles - 1, i + 1 + Math.floor(next() * 5)), Math.floor(next() * articles)]
    if (next() < 0.5) targets.push(Math.floor(next() * articles))
    const links = targets.filter((to) => to !== i).map((to) => relativeLink(perTopic, i, to))
    let image: string | undefined
    if (i % 20 === 7) {
      image = `img/figure-${i}.png`
      batch.push(writeFile(path.join(dir, topicDir(t), image), pngBytes(i)))
      images++
    }
    const body = articleBody(i, links, image, next)
    bytes += Buffer.byteLength(body)
    batch.push(writeFile(path.join(dir, topicDir(t), `page-${i}.md`), body))
    if (batch.length >= 64) await Promise.all(batch.splice(0))
  }
  await Promise.all(batch)
  return {articles, topics, images, bytes}
}

/**
 * Writes a chain of `length` articles in one topic folder per 500, each
 * linking to the next (a "next page" footer); the last links to the first,
 * closing the chain into a cycle.
 */
export async function generateLinkChain(dir: string, length: number): Promise<void> {
  const perTopic = 500
  const folder = (i: number) => `part-${Math.floor(i / perTopic)}`
  for (let t = 0; t * perTopic < length; t++) await mkdir(path.join(dir, `part-${t}`), {recursive: true})
  const batch: Array<Promise<void>> = []
  for (let i = 0; i < length; i++) {
    const to = (i + 1) % length
    const link = folder(to) === folder(i) ? `step-${to}.md` : `../${folder(to)}/step-${to}.md`
    const body = `# Step ${i}\n\nStep ${i} of the chain.\n\nNext: [step ${to}](${link})\n`
    batch.push(writeFile(path.join(dir, folder(i), `step-${i}.md`), body))
    if (batch.length >= 64) await Promise.all(batch.splice(0))
  }
  await Promise.all(batch)
}

/** A distinct small PNG-looking file per `seed` (the server stores bytes, it does not decode them). */
export function pngBytes(seed: number): Buffer {
  const header = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return Buffer.concat([header, Buffer.from(`figure ${seed} `.repeat(40))])
}
