/**
 * The external URLs a scan keeps for every document (for `--check-links`)
 * are objects of one hidden class, whichever way a body's URLs were found:
 * a spread in the literal gave the parsed bodies' objects a class apart from
 * the plain bodies' (and a copy by spread per URL at the end of the scan,
 * a third), which V8 keeps per shape for the whole run.
 */
import {spawnSync} from 'node:child_process'
import {describe, expect, it} from 'vitest'
import {builtFile} from '../built.js'

describe('the external URLs of a scan', () => {
  it('share one hidden class, parsed or found in a plain body', () => {
    const urls = JSON.stringify(builtFile('src/local/external-urls.js'))
    const dialect = JSON.stringify(builtFile('src/dialect/index.js'))
    const script = `
      const {externalUrlsOf, plainExternalUrls} = await import(${urls})
      const {parseKb} = await import(${dialect})
      const body = 'See [a](https://example.com/a) and ![b](https://example.com/b.png).\\n'
      const found = [...externalUrlsOf(parseKb(body)), ...plainExternalUrls(body)]
      console.log(found.length, found.every((url) => %HaveSameMap(url, found[0])))`
    const child = spawnSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000
    })
    expect(child.stderr).toBe('')
    expect(child.stdout.trim()).toBe('4 true')
  })
})
