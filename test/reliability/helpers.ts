/**
 * Helpers of the reliability suite: the built CLI as a child process (so a
 * crash is a crash, not a caught exception) and a generated article tree.
 */
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import type {CliRun} from '../e2e/push-helpers.js'
import {spawnCli} from '../e2e/push-helpers.js'

/** Runs `kbsync <argv>` (the built CLI) to its end and collects its output. */
export function runCli(argv: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(argv, env)
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += String(d)))
    child.stderr.on('data', (d) => (err += String(d)))
    child.on('error', reject)
    child.on('exit', (code, signal) => resolve({code: code ?? (signal ? 128 : 1), out, err}))
  })
}


/**
 * Writes a tree of `articles` articles in topics of `perTopic` (nested two
 * deep every fifth topic), each linking to a neighbour; every `imageEvery`-th
 * article shows its own small PNG. Returns the article paths.
 */
export async function generateTree(dir: string, articles: number, options: {perTopic?: number; imageEvery?: number} = {}): Promise<string[]> {
  const perTopic = options.perTopic ?? 20
  const imageEvery = options.imageEvery ?? 0
  const topics = Math.ceil(articles / perTopic)
  const topicDir = (t: number) => (t % 5 === 4 ? path.join(`topic-${t - 1}`, `sub-${t}`) : `topic-${t}`)
  const files: string[] = []
  for (let t = 0; t < topics; t++) {
    await mkdir(path.join(dir, topicDir(t), 'img'), {recursive: true})
    await writeFile(path.join(dir, topicDir(t), '_index.md'), `---\ntitle: Topic ${t}\n---\n\nAbout topic ${t}.\n`)
  }
  for (let i = 0; i < articles; i++) {
    const t = Math.floor(i / perTopic)
    const next = i + 1 < articles ? i + 1 : 0
    const nextPath = path.posix.relative(topicDir(t).split(path.sep).join('/'), `${topicDir(Math.floor(next / perTopic)).split(path.sep).join('/')}/page-${next}.md`)
    let body = `# Page ${i}\n\nArticle ${i} with **bold** text and a [link to the next one](${nextPath}).\n\n- one\n- two\n\n| a | b |\n| --- | --- |\n| ${i} | x |\n`
    if (imageEvery > 0 && i % imageEvery === 0) {
      await writeFile(path.join(dir, topicDir(t), 'img', `pic-${i}.png`), pngBytes(i))
      body += `\n![Picture ${i}](img/pic-${i}.png)\n`
    }
    const file = path.join(topicDir(t), `page-${i}.md`)
    await writeFile(path.join(dir, file), body)
    files.push(file)
  }
  return files
}

/** A distinct small PNG-looking file per `seed` (the server stores bytes, it does not decode them). */
function pngBytes(seed: number): Buffer {
  const header = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return Buffer.concat([header, Buffer.from(`image ${seed} `.repeat(20))])
}
