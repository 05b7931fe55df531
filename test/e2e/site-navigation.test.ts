/**
 * End-to-end: the navigation of JavaScript docs sites (Docusaurus
 * `sidebars.ts`, Starlight's `astro.config.mjs` sidebar) read as data, and
 * the locales of Starlight, Docusaurus and Hugo kept apart, pushed through
 * the CLI to the real local server. A configuration file that would run
 * code is never run.
 */
import {existsSync} from 'node:fs'
import {mkdir, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {useLocalServer} from './local-server.js'
import {cli, fixtureRepository, outline} from './push-helpers.js'

const local = useLocalServer()
const folders: string[] = []

afterAll(async () => {
  for (const dir of folders) await rm(dir, {recursive: true, force: true})
})

/** A copy of `fixtures/trees/<name>`, made a git repository (removed after the file's tests). */
const repository = (name: string) => fixtureRepository(name, folders)

/** Pushes `dir` (with `flags`) under a fresh root topic; the run, the root's id and the remote outline. */
async function pushTree(dir: string, flags: string[] = []) {
  const root = (await local.client.createItem({type: 'topic', title: 'root', parent_topic_id: null})).id
  const run = await cli(['push', dir, '--root-topic', root, ...flags], local.env)
  expect(run.err).not.toMatch(/\berror\b/)
  expect(run.code).toBe(0)
  return {run, root, lines: outline(await local.client.getTree(root))}
}

describe('Docusaurus sidebars.ts', () => {
  it('orders, nests and titles the docs as the sidebars say, each sidebar a topic, the French locale a topic of its own with its translated labels', async () => {
    const dir = await repository('docusaurus-sidebars')
    const {run, root, lines} = await pushTree(dir)
    expect(lines).toEqual([
      '[T] Docs',
      '  Introduction',
      '  [T] Getting Started',
      '    Install',
      '    Configure it',
      '  [T] Guides',
      '    Reading',
      '    Writing',
      '    [T] advanced',
      '      Caching',
      '[T] API',
      '  [T] API Reference',
      '    Client API',
      '    Server API',
      'Unlisted',
      '[T] Français',
      '  [T] Docs',
      '    Introduction (fr)',
      '    [T] Premiers pas',
      '      Installer'
    ])
    // The blog, and the site's other folders, are no documents of the docs plugin.
    expect(lines.join('\n')).not.toMatch(/Hello/)
    expect(run.err).toMatch(/1 document is not in sidebars\.ts \(`docs\/unlisted\.md`\)/)
    local.server.resetLog()
    expect((await cli(['push', dir, '--root-topic', root], local.env)).code).toBe(0)
    expect(local.server.counts().writes).toBe(0)
  })

  it('applies the sidebars above the docs folder when the docs folder itself is pushed', async () => {
    const dir = await repository('docusaurus-sidebars')
    const {lines} = await pushTree(path.join(dir, 'docs'))
    expect(lines.slice(0, 4)).toEqual(['[T] Docs', '  Introduction', '  [T] Getting Started', '    Install'])
    expect(lines).not.toContain('[T] Français')
  })
  it('reads the sidebars file the preset names (sidebarPath, through require.resolve)', async () => {
    const dir = await repository('docusaurus-sidebars')
    await rm(path.join(dir, 'sidebars.ts'))
    await mkdir(path.join(dir, 'nav'))
    await writeFile(path.join(dir, 'nav/docs.js'), "module.exports = {docs: ['api/server', 'intro']}")
    await writeFile(
      path.join(dir, 'docusaurus.config.js'),
      "module.exports = {presets: [['classic', {docs: {sidebarPath: require.resolve('./nav/docs.js')}}]]}"
    )
    await rm(path.join(dir, 'docusaurus.config.ts'))
    const {lines} = await pushTree(dir)
    expect(lines.slice(0, 2)).toEqual(['Server API', 'Introduction'])
  })
})

describe('Starlight astro.config.mjs', () => {
  it('publishes src/content/docs in sidebar order, each locale as a topic titled by its label with translated labels, the blog titled as starlight-blog says', async () => {
    const dir = await repository('starlight')
    const {run, lines} = await pushTree(dir)
    expect(lines).toEqual([
      'Example',
      '[T] Start Here',
      '  Getting started',
      '  Install',
      '  Configure',
      '[T] Reference',
      '  API',
      '  CLI',
      '[T] News',
      '  First post',
      '[T] Español',
      '  [T] Comienza aquí',
      '    Primeros pasos',
      '    Instalar',
      '  [T] Noticias',
      '    Primera entrada',
      '[T] 简体中文',
      '  [T] 从这里开始',
      '    入门'
    ])
    // The English and the translated home pages share a title, but never a topic.
    expect(run.err).not.toMatch(/title-disambiguated|is also the title/)
    expect(run.err).toMatch(/navigation-not-literal ×1/)
    const listed = await cli(['plan', dir, '--verbose'], local.env)
    expect(listed.err).toMatch(/not written as literal values \(the first here: a call of `generatedLinks`\)/)
  })

  it('pushes one locale alone with --locale, to a root of its own', async () => {
    const dir = await repository('starlight')
    const docs = path.join(dir, 'src/content/docs')
    const english = await pushTree(docs)
    expect(english.lines[0]).toBe('[T] Start Here')
    expect(english.lines).toContain('[T] Español')
    const spanish = await pushTree(docs, ['--locale', 'es'])
    expect(spanish.lines).toEqual([
      'Example',
      '[T] Comienza aquí',
      '  Primeros pasos',
      '  Instalar',
      '[T] Noticias',
      '  Primera entrada'
    ])
    const unknown = await cli(['plan', docs, '--locale', 'de'], local.env)
    expect(unknown.code).toBe(2)
    expect(unknown.err).toMatch(/`--locale de` names no locale of the site \(`root`, `es`, `zh-cn`\)/)
  })

  it('leaves the other locales out when the config says locales: skip', async () => {
    const dir = await repository('starlight')
    const config = path.join(dir, 'kbsync.config.json')
    await writeFile(config, JSON.stringify({locales: 'skip'}))
    const {lines} = await pushTree(dir, ['--config', config])
    expect(lines).not.toContain('[T] Español')
    expect(lines).toContain('[T] Start Here')
  })
})

describe('Hugo languages', () => {
  it('publishes the default language as the folder and each other contentDir as a topic titled by its languageName', async () => {
    const dir = await repository('hugo-languages')
    const {lines} = await pushTree(dir)
    expect(lines).toEqual([
      'About',
      '[T] Documentation',
      '  Install',
      '[T] Français',
      '  [T] Documentation',
      '    Installer',
      '[T] Deutsch',
      '  Über uns'
    ])
    const french = await pushTree(path.join(dir, 'content'), ['--locale', 'fr'])
    expect(french.lines).toEqual(['[T] Documentation', '  Installer'])
  })
})

describe('a configuration file that would run code', () => {
  it('is read as data: nothing in it runs, and what is not literal is skipped with one warning', async () => {
    const dir = await repository('docusaurus-sidebars')
    const marker = path.join(dir, 'ran.txt')
    await writeFile(
      path.join(dir, 'sidebars.ts'),
      [
        "require('child_process').execSync('touch ' + " + JSON.stringify(marker) + ')',
        "require('fs').writeFileSync(" + JSON.stringify(marker) + ", 'ran')",
        'const extra = (() => { require("fs").writeFileSync(' + JSON.stringify(marker) + ', "ran"); return [] })()',
        'module.exports = {',
        "  docs: ['intro', ...extra, require('./more.js'), {type: 'doc', id: 'getting-started/overview'}],",
        '}'
      ].join('\n')
    )
    const {run, lines} = await pushTree(dir)
    expect(existsSync(marker)).toBe(false)
    expect(lines.slice(0, 2)).toEqual(['Introduction', 'Overview'])
    expect(run.err).toMatch(/navigation-not-literal ×1/)
    const listed = await cli(['plan', dir, '--verbose'], local.env)
    expect(listed.err).toMatch(
      /2 entries of the Docusaurus sidebars are not written as literal values \(the first here: a call\)/
    )
    expect(existsSync(marker)).toBe(false)
  })

  it('that cannot be parsed, or nests past the budget, is one warning and the folders give the order', async () => {
    const dir = await repository('docusaurus-sidebars')
    await writeFile(path.join(dir, 'sidebars.ts'), 'export default {docs: [' + '['.repeat(5000) + ']}')
    const {run, lines} = await pushTree(dir)
    expect(run.err).toMatch(/`sidebars\.ts` cannot be read as data \(brackets nest deeper than 200 levels/)
    expect(lines).toContain('Introduction')
  })
})
