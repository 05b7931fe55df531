/**
 * End-to-end: a page that opens with a blank line before its `---` block
 * (three of Biome's `getting-started.mdx`). Astro and Hugo read that block
 * as front matter, so the article takes its title from it and no reader
 * sees its YAML; a `---` after blank lines that opens no block of keys
 * stays a thematic break. Pull writes a title edited on the web into that
 * block, the blank line kept, and a push right after writes nothing.
 */
import {readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {temporaryFolders} from '../temp-folders.js'
import {useLocalServer} from './local-server.js'
import {bodyOf, cli} from './push-helpers.js'
import {itemTitled} from './settle.js'

const local = useLocalServer()
const temporary = temporaryFolders('front-matter-blank')

afterAll(() => temporary.removeAll())

const page = [
  '',
  '---',
  'title: Getting Started',
  'description: Learn how to set up a new project with Biome.',
  '---',
  '',
  'import { Tabs } from "@astrojs/starlight/components";',
  '',
  'Biome is best installed as a development dependency.',
  ''
].join('\n')
const rule = ['', '---', '', 'Text under a rule.', ''].join('\n')

describe('front matter after blank lines', () => {
  it('is the page front matter: no YAML in the body, its title kept by pull, a push after it writes nothing', async () => {
    const dir = await temporary.make()
    await writeFile(path.join(dir, 'getting-started.mdx'), page)
    await writeFile(path.join(dir, 'rule.md'), rule)
    const root = (await local.client.createItem({type: 'topic', title: 'Blank first', parent_topic_id: null})).id
    const run = await cli(['push', dir, '--root-topic', root], local.env)
    expect(run.code, run.err).toBe(0)

    const article = await itemTitled(local, root, 'Getting Started')
    const body = bodyOf(await local.client.getItem(article.id))
    expect(body).toContain('Biome is best installed')
    expect(body).not.toMatch(/title:|description:|---/)
    const ruled = bodyOf(await local.client.getItem((await itemTitled(local, root, 'rule')).id))
    expect(ruled).toMatch(/^---\n\nText under a rule\./)

    await local.client.updateItem(article.id, {title: 'Setting up'})
    const pulled = await cli(['pull', dir, '--root-topic', root], local.env)
    expect(pulled.code, pulled.err + pulled.out).toBe(0)
    expect(await readFile(path.join(dir, 'getting-started.mdx'), 'utf8')).toBe(
      page.replace('title: Getting Started', 'title: Setting up')
    )
    local.server.resetLog()
    const again = await cli(['push', dir, '--root-topic', root], local.env)
    expect(again.code, again.err).toBe(0)
    expect(local.server.counts().writes, again.out + again.err).toBe(0)
  })
})
