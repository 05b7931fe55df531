/**
 * Output and links as weapons (issue 28, finding 7), end to end: the built
 * CLI against the real local server. Text from the repository (a front
 * matter title, a file name, a link) is data: printed, it starts no GitHub
 * Actions workflow command and sends no escape sequence to the terminal;
 * published, no link of it runs a script.
 */
import {execFile} from 'node:child_process'
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {builtCli} from '../built.js'
import {useLocalServer} from '../e2e/local-server.js'
import {temporaryFolders, writeFiles} from '../temp-folders.js'

const local = useLocalServer()
const folders = temporaryFolders('output')

afterAll(() => folders.removeAll())

/** Runs the built CLI with the local server's environment plus `env`. */
function kbsync(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<{code: number; out: string; err: string}> {
  const base = {...process.env}
  for (const name of ['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'FORCE_COLOR', 'NO_COLOR']) delete base[name]
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [builtCli, ...argv],
      {cwd: path.dirname(builtCli), env: {...base, ...local.env, ...env}, maxBuffer: 1 << 26},
      (error, out, err) => resolve({code: error ? Number(error.code ?? 1) : 0, out, err})
    )
  })
}

/** A fresh root topic. */
async function rootTopic(): Promise<string> {
  return (await local.client.createItem({type: 'topic', title: `Root ${Math.random()}`, parent_topic_id: null})).id
}

/**
 * Whether the runner would take `line` as a workflow command: `::` after
 * leading whitespace (`TryParseV2`, .NET's `TrimStart`) or `##[` anywhere
 * (`TryParse`). The runner splits its input at LF and at CR.
 */
function startsCommand(line: string): boolean {
  return /^[\s\u0085\u180e]*::/.test(line) || line.includes('##[')
}

/** kbsync's own annotations: one command of its three levels, fields escaped (no `:` or `,` inside a property). */
const ownAnnotation =
  /^::(?:error|warning|notice) (?:file=[^,:\r\n]*,(?:line=\d+,)?(?:col=\d+,)?)?title=kbsync[^,:\r\n]*::|^::error::/

/** Every line of `text` that the runner would take as a command but is not one of kbsync's own annotations. */
function forgedCommands(text: string): string[] {
  return text.split(/\r\n|\r|\n/).filter((line) => startsCommand(line) && !ownAnnotation.test(line))
}

/** The documents of a repository that means harm: workflow commands and escape sequences in titles and file names. */
const hostile: Record<string, string> = {
  'a.md': '---\ntitle: "x\\n::error file=a.md::forged"\n---\n\nA.\n',
  'b\n::add-mask::hidden.md': '# B\n\nB.\n',
  'c\n  ::stop-commands::tok.md': '# C\n\nC.\n',
  'd.md': '---\ntitle: "##[error]legacy forged"\n---\n\nD.\n',
  'e.md': '---\ntitle: "\\e[2J\\e]0;pwned\\aclean\\u202Eevil\\rover"\n---\n\nE.\n',
  'f\r::warning::cr.md': '# F\n\nF.\n',
  'g.md': '---\ntitle: "g\\u2028::error::separator"\n---\n\nG.\n'
}

describe('under GitHub Actions no printed line starts a workflow command but kbsync own annotations', () => {
  it('plan and push (text and --json) print titles and file names escaped', async () => {
    const dir = await folders.make()
    await writeFiles(dir, hostile)
    const root = await rootTopic()
    const summary = path.join(await folders.make(), 'summary.md')
    const env = {GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary}
    const runs = [
      await kbsync(['plan', dir, '--root-topic', root], env),
      await kbsync(['plan', dir, '--root-topic', root, '--json'], env),
      await kbsync(['push', dir, '--root-topic', root], env),
      await kbsync(['plan', dir, '--root-topic', root, '--verbose'], env)
    ]
    for (const run of runs) {
      for (const text of [run.out, run.err]) {
        expect(forgedCommands(text)).toEqual([])
        // No raw control character but LF reaches the log (colour is off: not a terminal).
        // eslint-disable-next-line no-control-regex -- the control characters are what is checked
        expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/)
      }
    }
    const [plan, json, push] = runs as [(typeof runs)[0], (typeof runs)[0], (typeof runs)[0]]
    // The title and the file names are shown, escaped, on the line of their step.
    expect(plan.out).toContain('"x\\n::error file=a.md::forged"')
    expect(plan.out).toContain('b\\n::add-mask::hidden.md')
    expect(plan.out).toContain('"##\\[error]legacy forged"')
    expect(plan.out).toContain('"\\x1b[2J\\x1b]0;pwned\\x07clean\\u202eevil\\rover"')
    // --json stays one valid document holding the exact values.
    const parsed = JSON.parse(json.out) as {ops: Array<{title: string; path: string}>}
    expect(parsed.ops.map((op) => op.title)).toContain('x\n::error file=a.md::forged')
    expect(parsed.ops.map((op) => op.title)).toContain('##[error]legacy forged')
    expect(parsed.ops.map((op) => op.path)).toContain('b\n::add-mask::hidden.md')
    // The push wrote the documents under their exact titles.
    const titles = (await local.client.getTree(root)).map((node) => node.title)
    expect(titles).toContain('x\n::error file=a.md::forged')
    expect(push.code).not.toBe(2)
    // kbsync's own annotations name the files escaped as the toolkit escapes them.
    const annotations = [...plan.out.split('\n'), ...json.err.split('\n')].filter((line) => ownAnnotation.test(line))
    expect(annotations.length).toBeGreaterThan(0)
    for (const line of annotations)
      expect(line.split('::').length).toBeLessThanOrEqual(3 + (line.match(/%3A%3A/g) ?? []).length)
    // The step summary shows the text: no HTML, no link, no row broken.
    const markdown = await readFile(summary, 'utf8')
    expect(markdown).not.toMatch(/<|\]\(|\r/)
    expect(markdown).toContain('x\\\\n::error file=a.md::forged')
  })

  it('a failed command prints its error through the same rules', async () => {
    const dir = path.join(await folders.make(), 'gone\n::error::forged\r##[warning]too')
    for (const json of [[], ['--json']]) {
      const run = await kbsync(['plan', dir, '--root-topic', 'x', ...json], {GITHUB_ACTIONS: 'true'})
      expect(run.code).not.toBe(0)
      expect(forgedCommands(run.out + '\n' + run.err)).toEqual([])
      expect(run.out + run.err).toContain('gone\\n::error::forged\\r##\\[warning]too')
    }
  })

  it('convert prints its messages by the same rules (a quoted attribute holding a command)', async () => {
    const dir = await folders.make()
    const text = 'A <mark data-color="x\n::error::forged">m</mark> <mark data-color="##[error]legacy">n</mark>.\n'
    await writeFiles(dir, {'marks.md': text})
    const run = await kbsync(['convert', '--from', 'gfm', '--to', 'kb', path.join(dir, 'marks.md')], {
      GITHUB_ACTIONS: 'true'
    })
    expect(run.err).toMatch(/marks\.md:1:\d+: warning: .*x\\n::error::forged.*\[kb-invalid-color\]/)
    expect(run.err).toContain('##\\[error]legacy')
    expect(forgedCommands(run.err)).toEqual([])
  })

  it('with colour forced, only kbsync colours reach the terminal: a title escape sequence is shown escaped', async () => {
    const dir = await folders.make()
    await writeFiles(dir, {'e.md': hostile['e.md']!, 'h\x1b[8m.md': '# H\n\nH.\n'})
    const run = await kbsync(['plan', dir, '--root-topic', await rootTopic()], {FORCE_COLOR: '1'})
    const text = run.out + run.err
    expect(text).toContain('\\x1b[2J\\x1b]0;pwned\\x07clean\\u202eevil\\rover')
    // Every ESC left is one of the palette's SGR sequences.
    // eslint-disable-next-line no-control-regex -- the escape character is what is checked
    expect(text.replace(/\x1b\[(?:1|2|22|31|32|33|36|39)m/g, '')).not.toMatch(/[\x1b\x07\r\u202e]/)
  })
})

/** A document whose links run scripts, in every way a link reaches the dialect. */
const scriptLinks = [
  '# Links',
  '',
  '[a](javascript:alert(1)) [b](JaVaScRiPt:x) [c](java%0Ascript:x) [d](data:text/html,<b>hi</b>)',
  '',
  '<a href="vbscript:msgbox(1)">v</a> <a href="&#106;avascript:x">w</a> [e][ref] <javascript:alert(2)>',
  '',
  '[t](<java\tscript:x>) [s]( javascript:x)',
  '',
  '![i](data:image/png;base64,iVBORw0KGgo=) [ok](https://example.org)',
  '',
  '[ref]: javascript:ref()',
  ''
].join('\n')

describe('a link whose address runs a script is published as its text, with a warning naming file:line', () => {
  it('push: the article body holds the text and no such address; a data: image stays an image', async () => {
    const dir = await folders.make()
    await writeFiles(dir, {'links.md': scriptLinks})
    const root = await rootTopic()
    const run = await kbsync(['push', dir, '--root-topic', root, '--verbose'])
    expect(run.code).toBe(0)
    const [node] = await local.client.getTree(root)
    const body = (await local.client.getItem(node!.id)).body ?? ''
    expect(body).not.toMatch(/\]\(\s*(?:javascript|vbscript|data:text)|href="(?:javascript|vbscript|&#)/i)
    expect(body).not.toMatch(/javascript:alert\(1\)|JaVaScRiPt:x|java%0Ascript|vbscript:|data:text|javascript:ref/i)
    for (const text of ['a', 'b', 'c', 'd', 'v', 'w', 'e', 't', 's']) expect(body).toMatch(new RegExp(`\\b${text}\\b`))
    expect(body).toContain('](https://example.org)')
    expect(body).toMatch(/!\[i\]\(/)
    for (const line of [3, 5, 7])
      expect(run.err).toMatch(new RegExp(`links\\.md:${line}:\\d+: warning: .*\\[kb-script-url\\]`))
    expect(run.err.match(/\[kb-script-url\]/g)?.length).toBeGreaterThanOrEqual(10)
  })

  it('convert --from gfm --to kb and --to html: no live script address, the same warnings', async () => {
    const dir = await folders.make()
    await writeFiles(dir, {'links.md': scriptLinks})
    const file = path.join(dir, 'links.md')
    const kb = await kbsync(['convert', '--from', 'gfm', '--to', 'kb', file])
    expect(kb.out).not.toMatch(/javascript:alert\(1\)|JaVaScRiPt|vbscript|data:text|java%0Ascript|javascript:ref/)
    // An autolink's text is its address: kept as text, never as a link.
    expect(kb.out).toContain(' javascript:alert(2)\n')
    expect(kb.err).toMatch(/links\.md:3:\d+: warning: .*\[kb-script-url\]/)
    const html = await kbsync(['convert', '--from', 'gfm', '--to', 'html', file])
    expect(html.out).not.toMatch(/href="\s*(?:javascript|vbscript|data)/i)
    expect(html.out).toMatch(/<img src="data:image\/png;base64,/)
    expect(html.out).toContain('href="https://example.org"')
  })

  it('pull keeps a platform body as it is, and its HTML (the preview) makes no live link of it', async () => {
    const dir = await folders.make()
    const root = await rootTopic()
    const body = '[x](javascript:alert(1)) [y](JaVa&#x09;ScRiPt:z) [z](data:text/html,hi)\n'
    await local.client.createItem({type: 'article', title: 'Remote', parent_topic_id: root, body})
    expect((await kbsync(['pull', dir, '--root-topic', root])).code).toBe(0)
    const pulled = await readFile(path.join(dir, 'Remote.md'), 'utf8')
    expect(pulled).toContain('[x](javascript:alert')
    const html = await kbsync(['convert', '--from', 'kb', '--to', 'html', path.join(dir, 'Remote.md')])
    expect(html.out).not.toMatch(/href="\s*(?:javascript|vbscript|data)/i)
  })
})
