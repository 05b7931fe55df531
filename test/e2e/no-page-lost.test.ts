/**
 * End-to-end: no page lost. Pushed through the CLI (in process) to the real
 * local server: identical files at several paths are one upload serving
 * every body; a document linking to one that could not be written is
 * published with that link as text and completed on the next run; a page
 * with no text of its own is published with a line saying so, or left out
 * when the site generates it.
 */
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {run} from '../cli/helpers.js'
import {temporaryFolders} from '../temp-folders.js'
import {startFaultProxy} from './fault-proxy.js'
import {useLocalServer} from './local-server.js'
import {bodyOf, flatten} from './push-helpers.js'

const local = useLocalServer()
const folders = temporaryFolders('e2e-no-page-lost')
afterAll(() => folders.removeAll())

/** A git repository (a `.git` folder is all kbsync looks for) holding `files`, by repository-relative path. */
async function repository(files: Record<string, string | Buffer>): Promise<string> {
  const repo = await folders.make()
  await mkdir(path.join(repo, '.git'))
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(repo, name)), {recursive: true})
    await writeFile(path.join(repo, name), content)
  }
  return repo
}

/** Runs `kbsync <argv>` in `cwd` against the server (or what `extra` points at). */
function kbsync(argv: string[], cwd: string, extra: NodeJS.ProcessEnv = {}) {
  return run(argv, {cwd, env: {...local.env, ...extra}})
}

/** The stored bodies under the topic `root`, by title path. */
async function bodiesUnder(root: string): Promise<Record<string, {id: string; body: string}>> {
  const bodies: Record<string, {id: string; body: string}> = {}
  for (const entry of flatten(await local.client.getTree(root)))
    bodies[entry.titlePath] = {id: entry.id, body: bodyOf(await local.client.getItem(entry.id))}
  return bodies
}

async function rootTopic(title: string): Promise<string> {
  return (await local.client.createItem({type: 'topic', title, parent_topic_id: null})).id
}

/** Requests of one endpoint the server saw since `from` (an index into its log). */
function seen(endpoint: string, from: number): number {
  return local.server
    .requestLog()
    .slice(from)
    .filter((entry) => entry.endpoint === endpoint).length
}

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x42, 0x42])

describe('identical files at several paths', () => {
  it('are one upload that every body naming any of the paths references; a second push writes nothing', async () => {
    const repo = await repository({
      'a/img/x.png': png,
      'b/pic.png': png,
      'a/first.md': '# First\n\n![the x](img/x.png)\n',
      'b/second.md': '# Second\n\n![the pic](pic.png)\n',
      'both.md': '# Both\n\n![one](a/img/x.png)\n\n![two](b/pic.png)\n'
    })
    const root = await rootTopic('Identical files')
    const from = local.server.requestLog().length
    const pushed = await kbsync(['push', '--root-topic', root], repo)
    expect(pushed.err).not.toMatch(/error|unresolved/)
    expect(pushed.code).toBe(0)
    expect(seen('upload', from)).toBe(1)
    const bodies = await bodiesUnder(root)
    const url = /!\[the x\]\((\S+)\)/.exec(bodies['a / First']!.body)![1]!
    expect(url).toMatch(/services\/kb\?Id=/)
    expect(bodies['b / Second']!.body).toContain(`![the pic](${url})`)
    expect(bodies.Both!.body).toContain(`![one](${url})`)
    expect(bodies.Both!.body).toContain(`![two](${url})`)
    const again = local.server.counts().writes
    const second = await kbsync(['push', '--root-topic', root], repo)
    expect(second.code).toBe(0)
    expect(local.server.counts().writes).toBe(again)
  })
})

describe('a document that could not be written', () => {
  it('fails no other: documents linking to it are published with the link as text, and completed on the next run', async () => {
    const marker = 'REFUSED-BY-THE-PLATFORM'
    const repo = await repository({
      'guide/target.md': `# Target\n\nThe text the platform refuses: ${marker}.\n`,
      'intro.md': '# Intro\n\nRead [the target](guide/target.md) first.\n',
      'guide/next.md': '# Next\n\nBack to [the target](target.md#top), then on.\n'
    })
    const root = await rootTopic('Cascade')
    const proxy = await startFaultProxy(local.env.KBSYNC_API_URL!, marker)
    try {
      const faulty = {KBSYNC_API_URL: proxy.apiUrl}
      const first = await kbsync(['push', '--root-topic', root], repo, faulty)
      expect(first.code).not.toBe(0)
      expect(first.err).toMatch(/guide\/target\.md/)
      expect(first.err).not.toMatch(/which could not be written|dependencies could not be resolved/)
      // One warning per linking document, naming the link and why.
      expect(
        first.err.match(/warning: intro\.md: its link to guide\/target\.md \(.*refused.*\) is published as text/g)
      ).toHaveLength(1)
      expect(first.err.match(/warning: guide\/next\.md: its link to guide\/target\.md/g)).toHaveLength(1)
      let bodies = await bodiesUnder(root)
      expect(Object.keys(bodies).sort()).toEqual(['Intro', 'guide', 'guide / Next'])
      expect(bodies.Intro!.body.trim()).toBe('Read the target first.')
      expect(bodies['guide / Next']!.body.trim()).toBe('Back to the target, then on.')

      // The fault persists: only the failed one fails again; the partial bodies are stored already.
      const before = local.server.counts().writes
      const second = await kbsync(['push', '--root-topic', root], repo, faulty)
      expect(second.code).not.toBe(0)
      expect(local.server.counts().writes).toBe(before)
      expect(proxy.refused).toBe(2)

      // The fault gone: the target is created and both documents are completed.
      const third = await kbsync(['push', '--root-topic', root], repo)
      expect(third.err).not.toMatch(/error|warning/)
      expect(third.code).toBe(0)
      bodies = await bodiesUnder(root)
      const link = `<a data-node="articleLink" data-article-id="${bodies['guide / Target']!.id}">the target</a>`
      expect(bodies.Intro!.body).toContain(link)
      expect(bodies['guide / Next']!.body).toContain(link)

      // Nothing changed: nothing written.
      const settled = local.server.counts().writes
      expect((await kbsync(['push', '--root-topic', root], repo)).code).toBe(0)
      expect(local.server.counts().writes).toBe(settled)
    } finally {
      await proxy.close()
    }
  })
})

describe('pages with no text of their own', () => {
  const files = {
    // Starlight's 404: front matter only, drawn by a template; Hugo's search page; redirect stubs; an unrendered page.
    '404.md':
      "---\ntitle: '404'\ntemplate: splash\neditUrl: false\nhero:\n  title: '404'\n  tagline: Not found.\n---\n",
    'search.md': '---\ntitle: Search results\nlayout: search\n---\n\n',
    'old-name.md': '---\nredirect: new-name.md\n---\n',
    'hidden.md': '---\ntitle: Hidden\n_build:\n  render: never\n---\n',
    // Bodies that convert to nothing: comments only, a Vue page, MDX statements and a component.
    'comments.md': '---\ntitle: Comments\n---\n\n<!-- to be written -->\n',
    'team.md':
      '---\nlayout: page\ntitle: Meet the team\ndescription: The people *behind* it.\n---\n\n<script setup>\nimport {members} from "./members"\n</script>\n\n<VPTeamPage>\n  <VPTeamMembers :members="members" />\n</VPTeamPage>\n',
    'home.mdx': '---\ntitle: Home\n---\n\nimport Hero from "./hero"\n\n<Hero />\n',
    'placeholder.md': '---\ntitle: Coming soon\n---\n',
    // A topic whose index holds only a comment: a topic without a body.
    'section/_index.md': '---\ntitle: Section\n---\n\n<!-- the list of pages is generated -->\n',
    'section/page.md': '# Page\n\nSee [the search](../search.md) and [the old name](../old-name.md).\n'
  }

  it('plan finds them (a warning naming each file); nothing stops the push', async () => {
    const repo = await repository(files)
    const planned = await kbsync(['plan', '--verbose', '--root-topic', await rootTopic('Blank plan')], repo)
    expect(planned.err).not.toMatch(/error/)
    for (const file of ['comments.md', 'team.md', 'home.mdx', 'placeholder.md'])
      expect(planned.err).toMatch(
        new RegExp(`${file.replace('.', '\\.')}:\\d+: warning: The page has no text of its own`)
      )
    // Hugo's `render: never` is the publish rule's (build-skipped); the other three are pages the site makes.
    expect(planned.err).toMatch(/3 pages the site makes/)
    expect(planned.err).toMatch(/1 document the site does not render .* not published: hidden\.md/)
  })

  it('publishes the author’s pages with a line saying so, leaves out those the site makes; a second push writes nothing', async () => {
    const repo = await repository(files)
    const root = await rootTopic('Blank pages')
    const pushed = await kbsync(['push', '--root-topic', root], repo)
    expect(pushed.err).not.toMatch(/error/)
    expect(pushed.code).toBe(0)
    const bodies = await bodiesUnder(root)
    expect(Object.keys(bodies).sort()).toEqual([
      'Coming soon',
      'Comments',
      'Home',
      'Meet the team',
      'Section',
      'Section / Page'
    ])
    expect(bodies.Comments!.body).toContain('This page has no text of its own')
    expect(bodies['Coming soon']!.body).toContain('it is a title in the navigation')
    expect(bodies['Meet the team']!.body).toMatch(
      /^The people \\\*behind\\\* it\.\n\n\*This page has no text of its own: on the site, its `page` layout draws it/
    )
    expect(bodies.Home!.body).toContain('made of components or scripts only the site shows')
    expect(bodies.Section!.body).toBe('')
    // Links to pages left out keep their text.
    expect(bodies['Section / Page']!.body.trim()).toBe('See the search and the old name.')
    const again = local.server.counts().writes
    expect((await kbsync(['push', '--root-topic', root], repo)).code).toBe(0)
    expect(local.server.counts().writes).toBe(again)
  })
})
