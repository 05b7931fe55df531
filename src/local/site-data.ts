/**
 * The values a docs site's templates print, filled in before a body is
 * converted (so the body text, and with it the body's cache key, holds
 * them): Hugo's `{{% param "name" %}}` / `{{< param name >}}` from the
 * page's front matter (a key, or one under `params`), else the site's
 * `params` in its configuration (`hugo.*`, `config.*`,
 * `config/_default/*`); Jekyll's `{{ page.x }}` from the front matter and
 * `{{ site.x }}` from `_config.yml`. Configuration files are read as data
 * through the trust rules (YAML, JSON, or the plain `key = value` tables of
 * TOML, `../trust/toml-keys.ts`), from the synced folder up to the repository root, nearest first.
 * Fenced code and inline code are left as written; a value not found is
 * left to the conversion, which leaves the tag out with a warning.
 */
import path from 'node:path'
import {FenceTracker} from '../../plugins/fence-tracker.js'
import {codeSpans, inSpan} from '../dialect/gfm-to-kb/site-syntax/hugo/code-spans.js'
import {findShortcodes} from '../dialect/gfm-to-kb/site-syntax/hugo/shortcodes.js'
import {ReadRefusedError, utf8Text} from '../trust/read.js'
import type {PublishSource} from '../trust/publishable.js'
import {readTomlKeys, readYaml} from '../trust/index.js'

/** What the site's configuration says: Hugo's `params`, and Jekyll's whole `_config.yml`. */
export interface SiteValues {
  params: Record<string, unknown>
  jekyll: Record<string, unknown>
}

const hugoNames = ['hugo', 'config'].flatMap((name) => ['toml', 'yaml', 'yml', 'json'].map((ext) => `${name}.${ext}`))
const hugoDefaults = ['hugo', 'config', 'params'].flatMap((name) =>
  ['toml', 'yaml', 'yml', 'json'].map((ext) => `config/_default/${name}.${ext}`)
)
const maxConfigBytes = 1048576

/** Reads the site's configuration, from `root` up to `top` (the repository root, or `root`), nearest first. */
export async function loadSiteValues(source: PublishSource, root: string, top: string): Promise<SiteValues> {
  const values: SiteValues = {params: {}, jekyll: {}}
  let foundHugo = false
  let foundJekyll = false
  for (let dir = root; ; dir = path.dirname(dir)) {
    if (!foundHugo) {
      for (const name of [...hugoNames, ...hugoDefaults]) {
        const data = await readConfig(source, path.join(dir, name))
        if (!data) continue
        const params = name.includes('/params.') ? data : data.params
        if (params && typeof params === 'object')
          values.params = {...(params as Record<string, unknown>), ...values.params}
        foundHugo = true
      }
    }
    if (!foundJekyll) {
      const data = await readConfig(source, path.join(dir, '_config.yml'))
      if (data) [values.jekyll, foundJekyll] = [data, true]
    }
    if (dir === top || path.dirname(dir) === dir || !dir.startsWith(top)) break
  }
  return values
}

/** A configuration file as data, or undefined when it is absent, refused, or not a mapping. */
async function readConfig(source: PublishSource, file: string): Promise<Record<string, unknown> | undefined> {
  let text: string
  try {
    text = utf8Text(await source.read(file, maxConfigBytes))
  } catch (error) {
    if (error instanceof ReadRefusedError) return undefined
    throw error
  }
  let data: unknown
  if (file.endsWith('.toml')) data = nested(readTomlKeys(text))
  else if (file.endsWith('.json')) {
    try {
      data = JSON.parse(text)
    } catch {
      return undefined
    }
  } else {
    const read = readYaml(text)
    data = read.ok ? read.data : undefined
  }
  return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined
}

// Hugo's `param`, and Docsy's `_param` whose further arguments fill the value's `{1}`, `{2}`... (`{0}` the name).
const hugoParam =
  /\{\{([<%])-?[ \t]*(_?param)[ \t]+(?:name=)?(?:"([^"\n]*)"|`([^`\n]*)`|([^\s"`%>}]+))((?:[ \t][^%>}\n]*)?)-?[%>]\}\}/gi
const liquidValue = /\{\{-?[ \t]*(site|page)\.([\w.-]+)[ \t]*-?\}\}/g

/** Whether `body` may print a value this module fills in: the cheap test before the pass. */
export function mayPrintValues(body: string): boolean {
  return body.includes('{{') && (body.includes('param') || /\{\{-?[ \t]*(?:site|page)\./.test(body))
}

/** `body` with the values it prints filled in (see the module comment); `frontMatter` is its YAML. */
export function fillSiteValues(body: string, frontMatter: string, site: SiteValues): string {
  if (!mayPrintValues(body)) return body
  let page: Record<string, unknown> | undefined
  const pageData = (): Record<string, unknown> => {
    if (page) return page
    const read = frontMatter.trim() === '' ? undefined : readYaml(frontMatter)
    const data = read?.ok ? read.data : undefined
    return (page = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {})
  }
  const fences = new FenceTracker()
  const lines = body.split('\n')
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!
    if (fences.isCode(line.replace(/^(?:[ \t]*>)*[ \t]*/, '')) || !line.includes('{{')) continue
    const spans = codeSpans(line)
    const fill = (match: string, at: number, value: unknown): string =>
      inSpan(spans, at) ? match : (printable(value) ?? match)
    lines[index] = line
      .replace(hugoParam, (match, _delimiter, name: string, quoted, raw, bare, rest: string, at: number) => {
        const key = String(quoted ?? raw ?? bare)
        const data = pageData()
        const value = lookup(data, key) ?? lookup(data.params, key) ?? lookup(site.params, key)
        const filled = name.toLowerCase() === '_param' ? withPlaceholders(printable(value), match) : value
        return rest.replace(/-\s*$/, '').trim() && name.toLowerCase() === 'param' ? match : fill(match, at, filled)
      })
      .replace(liquidValue, (match, scope: string, key: string, at: number) =>
        fill(match, at, lookup(scope === 'page' ? pageData() : site.jekyll, key))
      )
  }
  return lines.join('\n')
}

/** Docsy's `_param` value with `{0}` (the name), `{1}`... replaced by the tag's positional arguments, in order. */
function withPlaceholders(value: string | undefined, tag: string): string | undefined {
  const args = findShortcodes(tag)[0]?.positional
  if (value === undefined || !args) return value
  // Each in turn, as the shortcode's template replaces them.
  return args.reduce((result, arg, index) => result.split(`{${index}}`).join(arg), value)
}

/** The dotted keys of a TOML file (`params.x.y`) as tables. */
function nested(keys: ReadonlyMap<string, unknown>): Record<string, unknown> {
  // Tables without a prototype: a key named `__proto__` is a key like any other.
  const table = (): Record<string, unknown> => Object.create(null) as Record<string, unknown>
  const root = table()
  for (const [key, value] of keys) {
    const parts = key.split('.')
    let current = root
    for (const part of parts.slice(0, -1)) {
      const next = Object.hasOwn(current, part) ? current[part] : undefined
      current = next && typeof next === 'object' ? (next as Record<string, unknown>) : (current[part] = table())
    }
    current[parts[parts.length - 1]!] = value
  }
  return root
}

/** The value at the dotted `key` of `data` (keys compared without case, as Hugo does). */
function lookup(data: unknown, key: string): unknown {
  let value: unknown = data
  for (const part of key.split('.')) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined
    const record = value as Record<string, unknown>
    const name = Object.hasOwn(record, part)
      ? part
      : Object.keys(record).find((candidate) => candidate.toLowerCase() === part.toLowerCase())
    if (name === undefined) return undefined
    value = record[name]
  }
  return value
}

/** A value as the template prints it, on one line; undefined for one it cannot print (a list, a table). */
function printable(value: unknown): string | undefined {
  if (typeof value === 'string') return value.replace(/\s*\n\s*/g, ' ')
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (value instanceof Date) return value.toISOString().slice(0, 10)
  return undefined
}
