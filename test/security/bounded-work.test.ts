/**
 * Issue 28, finding 5: what a repository or a knowledge base holds costs
 * bounded work. Through the built CLI against the local server: bodies whose
 * parse would cost more than linear time (long emphasis, strikethrough and
 * link runs, lists nested by indentation, very large bodies) are kept as
 * text with a warning naming the file, or refused with its line, in
 * seconds; on pull they are skipped by name within 400 MB of heap; a YAML
 * alias bomb (front matter, `_category_.yml`, `_permissions.yml`,
 * `mkdocs.yml`) is an error naming the file and line, exit 2; a
 * `SUMMARY.md` nested 2,500 levels is an error, never a stack overflow.
 */
import {readdir} from 'node:fs/promises'
import {afterAll, describe, expect, it} from 'vitest'
import {useLocalServer} from '../e2e/local-server.js'
import {runCli} from '../reliability/helpers.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'

const local = useLocalServer()
const temp = temporaryFolders('bounded')
afterAll(() => temp.removeAll())

/** What a crash looks like. */
const crash = /Maximum call stack|RangeError|TypeError|heap out of memory|\n\s+at .+:\d+:\d+/

/** Bodies of about 200 KB whose parse costs the square of their length (80 KB of `*a` took over a minute). */
const delimiterBodies: Record<string, string> = {
  stars: '*a'.repeat(100_000),
  'star-pairs': '**a*'.repeat(50_000),
  brackets: '[a]'.repeat(66_000),
  closers: 'a_ '.repeat(66_000),
  tildes: '~a'.repeat(100_000)
}

/** A list nested `levels` deep by indentation (2,000 levels: 4 MB, a cube of the depth to parse). */
function indentedList(levels: number): string {
  let text = ''
  for (let level = 0; level < levels; level++) text += '  '.repeat(level) + '- a\n'
  return text
}

/** Aliases that expand to 9^5 nodes. */
const aliasBomb = [
  'a: &a ["x","x","x","x","x","x","x","x","x"]',
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  'e: [*d,*d,*d,*d,*d,*d,*d,*d,*d]'
].join('\n')

async function write(dir: string, files: Record<string, string>): Promise<string> {
  await writeFiles(dir, files)
  return dir
}

async function timed(argv: string[], env: NodeJS.ProcessEnv = local.env) {
  const started = Date.now()
  const run = await runCli(argv, env)
  return {...run, seconds: (Date.now() - started) / 1000}
}

describe('a local body over the parse budget', () => {
  it('is kept as text with a warning naming the file, and the plan takes seconds', async () => {
    const files: Record<string, string> = {'fine.md': '# Fine\n\nA *fine* page.\n'}
    for (const [name, body] of Object.entries(delimiterBodies)) files[`${name}.md`] = `# ${name}\n\n${body}\n`
    const dir = await write(await temp.make(), files)
    const plan = await timed(['plan', dir, '--broken-links=warn'])
    expect(plan.code, plan.err).toBe(0)
    expect(plan.seconds).toBeLessThan(30)
    for (const name of Object.keys(delimiterBodies))
      expect(plan.err).toMatch(new RegExp(`${name}\\.md:3:1: warning: The body is not parsed: .*\\[kb-over-budget\\]`))
    expect(plan.out + plan.err).not.toMatch(crash)
  }, 120_000)

  it('a list nested 2,000 levels by indentation, or 500 levels in 250 KB, is an error with its line (exit 2)', async () => {
    const dir = await write(await temp.make(), {
      'fine.md': '# Fine\n\nText.\n',
      'deep.md': `# Deep\n\n${indentedList(500)}`
    })
    const plan = await timed(['plan', dir, '--broken-links=warn'])
    expect(plan.code, plan.err).toBe(2)
    expect(plan.seconds).toBeLessThan(30)
    expect(plan.err).toMatch(
      /deep\.md:\d+:1: error: The body is not parsed: line \d+ opens a list item .*\[kb-nesting-too-deep\]/
    )
    expect(plan.out + plan.err).not.toMatch(crash)
  }, 120_000)
})

describe('YAML in the repository', () => {
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    [
      'front matter',
      {'guide/x.md': `---\ntitle: X\n${aliasBomb}\n---\nText.\n`},
      /guide\/x\.md:4(?::\d+)?: error: Invalid YAML in front matter: Aliases .* expand past 50 nodes/
    ],
    [
      '_category_.yml',
      {'guide/_category_.yml': `${aliasBomb}\n`},
      /guide\/_category_\.yml:2: error: Invalid YAML in the category file: Aliases/
    ],
    [
      '_permissions.yml',
      {'guide/_permissions.yml': `${aliasBomb}\n`},
      /guide\/_permissions\.yml:2: error: Invalid YAML: Aliases/
    ],
    [
      'mkdocs.yml',
      {'mkdocs.yml': `site_name: x\n${aliasBomb}\nnav:\n  - guide/ok.md\n`},
      /mkdocs\.yml:3: error: Invalid YAML in mkdocs\.yml: Aliases/
    ],
    [
      'front matter nested 20,000 brackets deep',
      {'guide/x.md': `---\ntitle: ${'['.repeat(20_000)}\n---\nText.\n`},
      /guide\/x\.md:2(?::\d+)?: error: Invalid YAML in front matter: Brackets nest deeper than 100 levels/
    ]
  ]
  for (const [name, files, expected] of cases) {
    it(`an alias bomb or bracket bomb in ${name} is an error naming the file and line (exit 2)`, async () => {
      const dir = await write(await temp.make(), {'guide/ok.md': '# Ok\n\nText.\n', ...files})
      const plan = await timed(['plan', dir, '--broken-links=warn'])
      expect(plan.code, plan.err).toBe(2)
      expect(plan.err).toMatch(expected)
      expect(plan.err).not.toMatch(/Excessive alias count/)
      expect(plan.out + plan.err).not.toMatch(crash)
    }, 60_000)
  }
})

describe('a navigation outline nested past the limit', () => {
  it('a SUMMARY.md nested 2,500 levels is one error with its line, never a stack overflow', async () => {
    const lines = Array.from({length: 2500}, (_, index) => `${'  '.repeat(index)}- [C${index}](c${index}.md)`)
    const files: Record<string, string> = {'SUMMARY.md': `# Summary\n\n${lines.join('\n')}\n`}
    for (let index = 0; index < 2500; index++) files[`c${index}.md`] = `# C${index}\n\nText.\n`
    const dir = await write(await temp.make(), files)
    const plan = await timed(['plan', dir, '--broken-links=warn'])
    expect(plan.code, plan.err).toBe(2)
    expect(plan.err).toMatch(/SUMMARY\.md:53: error: SUMMARY\.md line 53 nests entries deeper than 50 levels/)
    expect(plan.err.match(/navigation-depth/g)).toHaveLength(1)
    expect(plan.out + plan.err).not.toMatch(crash)
  }, 120_000)

  it('a mkdocs.yml nav nested 300 levels is an error with its line', async () => {
    let nav = ''
    for (let level = 0; level < 300; level++) nav += `${'  '.repeat(level)}- S${level}:\n`
    nav += `${'  '.repeat(300)}- a.md\n`
    const dir = await write(await temp.make(), {
      'mkdocs.yml': `site_name: x\nnav:\n${nav}`,
      'docs/a.md': '# A\n\nText.\n'
    })
    const plan = await timed(['plan', dir, '--broken-links=warn'])
    expect(plan.code, plan.err).toBe(2)
    expect(plan.err).toMatch(
      /mkdocs\.yml:\d+: error: (?:mkdocs\.yml line \d+ nests entries deeper than 50 levels|Invalid YAML)/
    )
    expect(plan.out + plan.err).not.toMatch(crash)
  }, 60_000)
})

describe('a remote body over the parse budget', () => {
  it('is skipped by name on pull, in bounded time and within a 400 MB heap, while the rest pulls', async () => {
    const {client} = local
    const root = (await client.createItem({type: 'topic', title: 'Budget', parent_topic_id: null})).id
    const article = (title: string, body: string) =>
      client.createItem({type: 'article', title, parent_topic_id: root, body})
    await article('Before', 'Text before.')
    await article('Deep list', indentedList(2000))
    await article('Huge', 'word '.repeat(2_520_000))
    await article('Stars', delimiterBodies.stars!)
    await article('After', 'Text after.')

    const dir = await temp.make()
    const env = {...local.env, NODE_OPTIONS: '--max-old-space-size=400'}
    const pull = await timed(['pull', dir, '--root-topic', root], env)
    const output = pull.out + pull.err
    expect(pull.code, output).toBe(0)
    expect(pull.seconds).toBeLessThan(60)
    expect(output).not.toMatch(crash)
    expect(pull.err).toMatch(/Deep list\.md: warning: "Deep list" \(article \w+\) is not pulled: .*not parsed/)
    expect(pull.err).toMatch(/Huge\.md: warning: "Huge" \(article \w+\) is not pulled: .*characters long/)
    expect(pull.err).toMatch(/Stars\.md: warning: "Stars" \(article \w+\) is not pulled: .*delimiters/)
    expect((await readdir(dir)).filter((name) => name.endsWith('.md')).sort()).toEqual(['After.md', 'Before.md'])
  }, 180_000)
})
