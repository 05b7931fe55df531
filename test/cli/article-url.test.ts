/** The `articleUrl` config key: validated, and used by `kbsync convert` for the links it writes. */
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {articleUrlOf, loadConfig} from '../../src/cli/config.js'
import {run, tempDir} from './helpers.js'

const body = 'See <a data-node="articleLink" data-article-id="OJHEAFQ26YT">the guide</a>.\n'

/** `kbsync convert` in-process with `body` on stdin. */
function convert(argv: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  return run(['convert', '--from', 'kb', ...argv], {cwd, env, stdin: body})
}

describe('articleUrl', () => {
  it('makes a link function from the template, encoding the id', () => {
    expect(articleUrlOf({})).toBeUndefined()
    expect(articleUrlOf({articleUrl: 'https://kb.example.com/a/{id}?from={id}'})!('A B')).toBe(
      'https://kb.example.com/a/A%20B?from=A%20B'
    )
  })

  it('is checked: an http(s) URL holding {id}', async () => {
    const cwd = await tempDir()
    await expect(loadConfig({cwd, env: {KBSYNC_ARTICLE_URL: 'https://kb.example.com/article'}})).rejects.toThrow(
      /KBSYNC_ARTICLE_URL must be an http\(s\) URL containing \{id\}/
    )
    await expect(loadConfig({cwd, env: {}, flags: {'article-url': 'ftp://kb.example.com/{id}'}})).rejects.toThrow(
      /--article-url/
    )
    expect(
      (await loadConfig({cwd, env: {KBSYNC_ARTICLE_URL: 'https://kb.example.com/#/article/{id}'}})).articleUrl
    ).toBe('https://kb.example.com/#/article/{id}')
  })

  it('convert --to gfm and --to html link articles with the configured URL; default without one', async () => {
    const cwd = await tempDir()
    const plain = await convert(['--to', 'gfm'], cwd)
    expect(plain.out).toBe('See [the guide](https://pyrus.com/t#kb/article/OJHEAFQ26YT).\n')
    await writeFile(
      path.join(cwd, 'kbsync.config.json'),
      JSON.stringify({articleUrl: 'https://kb.example.com/t#kb/article/{id}'})
    )
    await mkdir(path.join(cwd, 'sub'))
    await mkdir(path.join(cwd, '.git'))
    // Found walking up inside the repository, as every command finds it.
    const gfm = await convert(['--to', 'gfm'], path.join(cwd, 'sub'))
    expect(gfm.code, gfm.err).toBe(0)
    expect(gfm.out).toBe('See [the guide](https://kb.example.com/t#kb/article/OJHEAFQ26YT).\n')
    const html = await convert(['--to', 'html'], cwd)
    expect(html.out).toContain('href="https://kb.example.com/t#kb/article/OJHEAFQ26YT"')
    // The flag wins over the file; --config names another file.
    const flag = await convert(['--to', 'gfm', '--article-url', 'https://other.example/{id}'], cwd)
    expect(flag.out).toContain('(https://other.example/OJHEAFQ26YT)')
    const other = path.join(await tempDir(), 'kb.json')
    await writeFile(other, JSON.stringify({articleUrl: 'https://third.example/a/{id}'}))
    expect((await convert(['--to', 'gfm', '--config', other], cwd)).out).toContain(
      '(https://third.example/a/OJHEAFQ26YT)'
    )
  })

  it('convert needs no credentials: a missing token file is not read', async () => {
    const cwd = await tempDir()
    await writeFile(path.join(cwd, 'kbsync.config.json'), JSON.stringify({articleUrl: 'https://kb.example.com/{id}'}))
    // Only the user config may name a token file.
    const user = path.join(await tempDir(), 'user.json')
    await writeFile(user, JSON.stringify({tokenFile: 'no-such-token'}))
    const result = await convert(['--to', 'gfm'], cwd, {KBSYNC_USER_CONFIG: user})
    expect(result.code, result.err).toBe(0)
    expect(result.out).toContain('(https://kb.example.com/OJHEAFQ26YT)')
  })

  it('a bad articleUrl in the config is a usage error of convert (exit 2)', async () => {
    const cwd = await tempDir()
    await writeFile(path.join(cwd, 'kbsync.config.json'), JSON.stringify({articleUrl: 'no placeholder'}))
    const result = await convert(['--to', 'gfm'], cwd)
    expect(result.code).toBe(2)
    expect(result.err).toContain('articleUrl')
    // The dialect-to-dialect conversion has no links to make and does not read the config.
    expect((await convert(['--to', 'kb'], cwd)).code).toBe(0)
  })
})
