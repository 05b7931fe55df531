/** `kbsync convert` through the built CLI: files, stdin, warnings on stderr, exit codes. */
import {builtCli} from '../built.js'
import {spawnSync} from 'node:child_process'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

const bin = builtCli

function kbsync(args: string[], input = '', cwd = process.cwd()) {
  const result = spawnSync(process.execPath, [bin, 'convert', ...args], {input, cwd, encoding: 'utf8', timeout: 20_000})
  return {code: result.status, stdout: result.stdout, stderr: result.stderr}
}

describe('kbsync convert', () => {
  it('converts a GFM file to the dialect, warnings as FILE:LINE:COL on stderr', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kbsync-convert-'))
    writeFileSync(join(dir, 'guide.md'), '# Guide\n\n> [!TIP]\n> Read on.\n\n#### Deep\n')
    const {code, stdout, stderr} = kbsync(['guide.md'], '', dir)
    expect(code).toBe(0)
    expect(stdout).toBe('# Guide\n\n<div data-node="hintBlock" data-color="green">\n\nRead on.\n\n</div>\n\n### Deep\n')
    expect(stderr).toMatch(/^guide\.md:6:1: warning: .*\[kb-heading-depth\]\n$/)
  })

  it('reads stdin and writes every target', () => {
    const body = '<mark data-color="pink">hi</mark>\n'
    expect(kbsync(['--from', 'kb', '--to', 'gfm'], body).stdout).toBe(body)
    expect(kbsync(['--from', 'kb', '--to', 'html'], body).stdout).toBe('<p><mark data-color="pink">hi</mark></p>\n')
    expect(kbsync(['--from', 'kb', '--to', 'comment-html'], body).stdout).toBe('<mark data-color="red">hi</mark>\n')
    const kb = kbsync(['--from', 'kb', '--to', 'kb'], '<div data-node="hintBlock" data-color="blue">\n\nopen\n')
    expect(kb.code).toBe(0)
    expect(kb.stderr).toMatch(/^<stdin>:1:1: warning: .*\[kb-unclosed-block\]\n$/)
  })

  it('refuses a GFM body nested past the dialect limit: an error with its line, no output, exit 2', () => {
    const {code, stdout, stderr} = kbsync([], 'Intro.\n\n' + '>'.repeat(5002) + ' deep\n')
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/^<stdin>:3:\d+: error: .*\[kb-nesting-too-deep\]$/m)
  })

  it('exits 2 on usage errors and unreadable files', () => {
    expect(kbsync(['--to', 'pdf']).code).toBe(2)
    expect(kbsync(['--from', 'html']).code).toBe(2)
    const missing = kbsync(['no-such-file.md'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('no-such-file.md')
  })

  it('refuses invalid UTF-8 (naming file and line) instead of writing replacement characters', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kbsync-convert-'))
    writeFileSync(
      join(dir, 'bad.md'),
      Buffer.concat([Buffer.from('# T\n\nbad '), Buffer.from([0xff, 0xfe]), Buffer.from(' bytes\n')])
    )
    const {code, stdout, stderr} = kbsync(['bad.md'], '', dir)
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/^bad\.md:3: error: The file is not valid UTF-8/)
  })

  // Issue 30: front matter was converted as Markdown: `---` a rule, `title: …` a `## title: …` heading.
  it('keeps front matter out of the body: left out of the dialect and HTML with a note, kept above a GFM body', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kbsync-convert-'))
    const file = '---\ntitle: My guide\ntags: [a, b]\n---\n\n# My guide\n\nHello *world*\n\n#### Deep\n'
    writeFileSync(join(dir, 'guide.md'), file)
    const kb = kbsync(['guide.md'], '', dir)
    expect(kb.code).toBe(0)
    // As push sends it: the title is the article's name, and its `# My guide` line is not repeated in the body.
    expect(kb.stdout).toBe('Hello *world*\n\n### Deep\n')
    expect(kb.stderr).toMatch(/^guide\.md:10:1: warning: .*\[kb-heading-depth\]\n/)
    expect(kb.stderr).toMatch(
      /^guide\.md: info: The front matter is not part of the body; its title "My guide" .*\[kb-front-matter\]$/m
    )
    const html = kbsync(['--to', 'html', 'guide.md'], '', dir)
    expect(html.stdout).not.toMatch(/title|<hr>/)
    const gfm = kbsync(['--to', 'gfm', 'guide.md'], '', dir)
    expect(gfm.stdout).toBe('---\ntitle: My guide\ntags: [a, b]\n---\n\n# My guide\n\nHello *world*\n\n### Deep\n')
    expect(gfm.stderr).not.toContain('kb-front-matter')
    // From the dialect (a pulled file fed back): the same.
    const back = kbsync(['--from', 'kb', '--to', 'gfm'], '---\ntitle: T\n---\nbody\n')
    expect(back.stdout).toBe('---\ntitle: T\n---\n\nbody\n')
    // A dialect body opening with a rule has no front matter.
    expect(kbsync(['--from', 'kb', '--to', 'kb'], '---\n\nbody\n').stdout).toBe('---\n\nbody\n')
  })

  it('refuses GFM whose front matter is not closed, as push does', () => {
    const {code, stdout, stderr} = kbsync([], '---\ntitle: T\nbody\n')
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toContain('[front-matter-unclosed]')
  })
})
