/**
 * MkDocs: a section whose last page left on the web. The pull keeps its
 * folder with an `_index.md` holding the section's title (the folder's name
 * is not its title) and a `.gitkeep`; that marker is no page the author left
 * out of `nav`: no push after it warns `navigation-unlisted` about it. A page
 * the author wrote and left out of `nav` still does.
 */
import {readdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {temporaryFolders} from '../temp-folders.js'
import {copyTree, ownSites} from './docs-sites.js'
import {useLocalServer} from './local-server.js'
import {asCloned, expectSettled, itemTitled, runOk} from './settle.js'

const local = useLocalServer()
const temporary = temporaryFolders('pull-emptied-topic-mkdocs')

afterAll(() => temporary.removeAll())

const run = (args: string[]) => runOk(local, args)

describe('MkDocs: a section emptied on the web', () => {
  it('is kept by a marker no push warns about; a page left out of nav still warns', async () => {
    const src = await copyTree(ownSites.mkdocs, await temporary.make())
    const root = (await local.client.createItem({type: 'topic', title: 'Site', parent_topic_id: null})).id
    const push = ['push', src, '--root-topic', root, '--broken-links=warn']
    const pull = ['pull', src, '--root-topic', root]
    const first = await run(push)
    // The site's own pages left out of nav (`dev-guide/`'s, which its literate-nav README lists) are said from the start.
    expect(first).toMatch(/4 documents are not in mkdocs\.yml .*\[navigation-unlisted\]/)
    const about = await itemTitled(local, root, 'About')
    for (const child of about.children ?? []) await local.client.deleteItem(child.id)

    await run(pull)
    expect((await readdir(path.join(src, 'docs', 'about'))).sort()).toEqual(['.gitkeep', '_index.md'])
    await asCloned(src)
    const pushed = await run(push)
    expect(pushed).toMatch(/4 documents are not in mkdocs\.yml .*\[navigation-unlisted\]/)
    expect(pushed).not.toContain('about/_index.md')
    await expectSettled(local, src, pull, push)
    expect((await itemTitled(local, root, 'About')).id).toBe(about.id)

    // A page the author leaves out of nav is still said.
    await writeFile(path.join(src, 'docs', 'user-guide', 'faq.md'), '# FAQ\n\nQuestions.\n')
    const unlisted = await run(push)
    expect(unlisted).toMatch(/5 documents are not in mkdocs\.yml .*\[navigation-unlisted\]/)
    expect(unlisted).not.toContain('about/_index.md')
  }, 120_000)
})
