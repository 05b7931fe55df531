/**
 * Links of pulled bodies (issue 18): a link to a pulled article or topic in
 * any of the platform's URL forms becomes a relative link to its file; a
 * relative URL of a remote body is written as the absolute URL it reaches on
 * the platform, with a warning at file:line; a link to a document the folder
 * does not hold keeps its id, with a warning at file:line. In every case the
 * next plan accepts the folder and a push right after the pull sends nothing.
 */
import {readFile, rm} from 'node:fs/promises'
import path from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {serverSuite} from './server-suite.js'
import type {KbClient} from '../../src/api/index.js'
import {planPush} from '../../src/sync/index.js'
import {platformItemOf, pull} from '../../src/sync/pull/index.js'

const suite = serverSuite('pull-links')
let client: KbClient
beforeAll(() => void (client = suite.client()))

/** A root topic holding a topic `Sub`, an article `Target` and an article `Source` with `body(ids)`. */
async function tree(
  body: (ids: {target: string; sub: string}) => string
): Promise<{root: string; target: string; sub: string; source: string}> {
  const root = (await client.createItem({type: 'topic', title: 'Links', parent_topic_id: null})).id
  const sub = (await client.createItem({type: 'topic', title: 'Sub', parent_topic_id: root, body: 'Sub pages.'})).id
  const target = (
    await client.createItem({type: 'article', title: 'Target', parent_topic_id: root, body: 'Target text.'})
  ).id
  const source = (
    await client.createItem({type: 'article', title: 'Source', parent_topic_id: root, body: body({target, sub})})
  ).id
  return {root, target, sub, source}
}

/** What a push right after the pull would do, and the errors of its plan. */
async function nextPush(dir: string, root: string): Promise<{ops: string[]; errors: string[]}> {
  const plan = await planPush({dir, client, rootTopicId: root})
  return {
    ops: plan.ops.map((op) => `${op.op} ${op.path}`),
    errors: plan.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.file}:${d.line}: ${d.message}`)
  }
}

describe('pull: links in the platform URL forms', () => {
  it('become relative links to the pulled files (default form, a title before the id, topics, the configured articleUrl)', async () => {
    const {root, target, sub} = await tree(
      ({target, sub}) =>
        `See [target](https://pyrus.com/t#kb/article/${target}), [slug](https://pyrus.com/t#kb/article/target-page-${target}), ` +
        `[sub](https://pyrus.com/t#kb/topic/${sub}), [custom](https://kb.example.com/a/${target}) and [elsewhere](https://pyrus.com/t#kb/article/NotPulled1).\n`
    )
    const dir = await suite.folder()
    const result = await pull({dir, client, rootTopicId: root, articleUrl: 'https://kb.example.com/a/{id}'})
    expect(result.status).toBe('ok')
    const source = await readFile(path.join(dir, 'Source.md'), 'utf8')
    expect(source).toContain('[target](Target.md)')
    expect(source).toContain('[slug](Target.md)')
    expect(source).toContain('[sub](Sub/_index.md)')
    expect(source).toContain('[custom](Target.md)')
    // Not pulled: the URL stays as it is.
    expect(source).toContain('[elsewhere](https://pyrus.com/t#kb/article/NotPulled1)')
    expect(result.diagnostics.map((d) => d.rule)).not.toContain('pull-not-exact')
    expect(await nextPush(dir, root)).toEqual({ops: [], errors: []})
    expect([target, sub]).not.toContain(undefined)
  })

  it('recognises the forms by themselves', () => {
    expect(platformItemOf('https://pyrus.com/t#kb/article/A2vOgM3fifF', {})).toEqual({
      kind: 'article',
      id: 'A2vOgM3fifF'
    })
    expect(platformItemOf('https://eu.pyrus.com/t#kb/topic/how-to-OJHEAFQ26YT', {})).toEqual({
      kind: 'topic',
      id: 'OJHEAFQ26YT'
    })
    expect(
      platformItemOf('https://pyrus.example.com/t#kb/article/X1', {
        articleUrl: 'https://pyrus.example.com/t#kb/article/{id}'
      })
    ).toEqual({kind: 'article', id: 'X1'})
    expect(
      platformItemOf('https://pyrus.example.com/t#kb/topic/X1', {
        articleUrl: 'https://pyrus.example.com/t#kb/article/{id}'
      })
    ).toEqual({kind: 'topic', id: 'X1'})
    expect(platformItemOf('https://notpyrus.com/t#kb/article/X1', {})).toBeUndefined()
    expect(platformItemOf('https://pyrus.com/t#task/X1', {})).toBeUndefined()
  })
})

describe('pull: links that would dangle in the folder', () => {
  it('a relative URL of a remote body is written as the absolute URL it reaches on the platform, with a warning at file:line', async () => {
    const {root} = await tree(() => 'Intro.\n\nSee [setup](setup.md) and [guide](../guide#install).\n')
    const dir = await suite.folder()
    const result = await pull({dir, client, rootTopicId: root})
    expect(result.status).toBe('ok')
    const source = await readFile(path.join(dir, 'Source.md'), 'utf8')
    expect(source).toContain('[setup](https://pyrus.com/setup.md)')
    expect(source).toContain('[guide](https://pyrus.com/guide#install)')
    const line = source.split('\n').findIndex((l) => l.includes('[setup]')) + 1
    const warnings = result.diagnostics.filter((d) => d.rule === 'pull-relative-link')
    expect(warnings.map((d) => `${d.file}:${d.line}`)).toEqual([`Source.md:${line}`, `Source.md:${line}`])
    expect(warnings[0]!.message).toContain('`setup.md`')
    expect(result.diagnostics.map((d) => d.rule)).not.toContain('pull-not-exact')
    expect(await nextPush(dir, root)).toEqual({ops: [], errors: []})
  })

  it('a link to a document deleted locally keeps its id, with a warning at file:line, and the next plan accepts the folder', async () => {
    const {
      root,
      target,
      source: sourceId
    } = await tree(({target}) => `Go to <a data-node="articleLink" data-article-id="${target}">the target</a>.\n`)
    const dir = await suite.folder()
    expect((await pull({dir, client, rootTopicId: root})).status).toBe('ok')
    expect(await readFile(path.join(dir, 'Source.md'), 'utf8')).toContain('[the target](Target.md)')

    await rm(path.join(dir, 'Target.md'))
    suite.server().webEdit(sourceId, {
      body: `Edited on the platform. Go to <a data-node="articleLink" data-article-id="${target}">the target</a>.\n`
    })
    const result = await pull({dir, client, rootTopicId: root})
    expect(result.status).toBe('ok')
    const source = await readFile(path.join(dir, 'Source.md'), 'utf8')
    expect(source).toContain('Edited on the platform')
    expect(source).not.toContain('Target.md')
    expect(source).toContain(`data-article-id="${target}"`)
    const line = source.split('\n').findIndex((l) => l.includes(target)) + 1
    const warnings = result.diagnostics.filter((d) => d.rule === 'pull-link-target-missing')
    expect(warnings.map((d) => `${d.file}:${d.line}`)).toEqual([`Source.md:${line}`])
    expect(warnings[0]!.message).toContain('"Target"')
    expect((await nextPush(dir, root)).errors).toEqual([])
  })
})
