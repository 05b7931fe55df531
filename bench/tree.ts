/**
 * Generated article trees for the benchmarks and the reliability suite:
 * topics of linked articles, some with an image each.
 */
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'

/**
 * Writes a tree of `articles` articles in topics of `perTopic` (nested two
 * deep every fifth topic), each linking to the first article of the next topic; every `imageEvery`-th
 * article shows its own small PNG. Returns the article paths.
 */
export async function generateTree(
  dir: string,
  articles: number,
  options: {perTopic?: number; imageEvery?: number} = {}
): Promise<string[]> {
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
    // Every article links to the first one of the next topic (which links nowhere): links without long
    // dependency chains, so the push can create articles in parallel as a real docs tree allows.
    const first = ((t + 1) % topics) * perTopic
    const target = `${topicDir((t + 1) % topics)
      .split(path.sep)
      .join('/')}/page-${first}.md`
    const link =
      i % perTopic === 0
        ? ''
        : ` and a [link to page ${first}](${path.posix.relative(topicDir(t).split(path.sep).join('/'), target)})`
    let body = `# Page ${i}\n\nArticle ${i} with **bold** text${link}.\n\n- one\n- two\n\n| a | b |\n| --- | --- |\n| ${i} | x |\n`
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
