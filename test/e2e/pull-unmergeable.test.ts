/**
 * A web edit of text the file does not hold (an mdBook include brought it
 * in): pull keeps the file and writes the platform's version beside it, and
 * says why in words that are true. The file was not edited here, so the
 * message must not say it was.
 */
import {mkdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {useLocalServer} from './local-server.js'
import {bodyOf, cli} from './push-helpers.js'
import {temporaryFolders} from '../temp-folders.js'

const local = useLocalServer()
const temporary = temporaryFolders('unmergeable')
afterAll(() => temporary.removeAll())

describe('a web edit of included text', () => {
  it('keeps the file, writes the platform version beside it, and does not call it a local edit', async () => {
    const repo = await temporary.make()
    await mkdir(path.join(repo, '.git'))
    const dir = path.join(repo, 'docs')
    await mkdir(dir)
    const page = '# Guide\n\nOwn words of the guide.\n\n{{#include shared.txt}}\n'
    await writeFile(path.join(dir, 'guide.md'), page)
    await writeFile(path.join(dir, 'shared.txt'), 'A shared sentence about the setup.\n')
    const root = (await local.client.createItem({type: 'topic', title: 'Includes', parent_topic_id: null})).id
    const pushed = await cli(['push', dir, '--root-topic', root], local.env)
    expect(pushed.code, pushed.err).toBe(0)

    const id = local.server.items().find((item) => item.title === 'Guide')!.id
    const body = bodyOf(await local.client.getItem(id))
    await local.client.updateItem(id, {body: body.replace('about the setup', 'about the first setup')})
    const pulled = await cli(['pull', dir, '--root-topic', root], local.env)

    expect(pulled.code, pulled.err).toBe(3)
    expect(pulled.err).toContain('pull-unmergeable')
    expect(pulled.err).toContain("conflict: guide.md: the platform's edit cannot be written into the file")
    expect(pulled.err).not.toContain('edited on the platform and locally')
    expect(await readFile(path.join(dir, 'guide.md'), 'utf8')).toBe(page)
    expect(await readFile(path.join(dir, 'guide.remote.md'), 'utf8')).toContain('about the first setup')
  }, 120_000)
})
