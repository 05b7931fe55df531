/**
 * Hugo's languages (`languages` in `hugo.toml` / `.yaml` / `.json`, or
 * `config/_default/languages.*`): a site whose languages each have a
 * `contentDir` (`content/en`, `content/fr`) keeps each language's pages in
 * a folder of its own. The default language is `defaultContentLanguage`
 * (`en` unless it says otherwise); the others follow by `weight`, titled by
 * `languageName` (or `label`). Hugo's keys are case-insensitive. A language
 * without a `contentDir` of its own translates by file name
 * (`page.fr.md`), which no folder separates: such a site has no locale
 * folders here. Pure: keys in, locales out.
 */
import {isPlainObject} from '../../trust/index.js'
import type {SiteLocale} from './starlight.js'

/** The names of Hugo's configuration files, at the site's root, in Hugo's order. */
export const hugoConfigNames = [
  'hugo.toml',
  'hugo.yaml',
  'hugo.yml',
  'hugo.json',
  'config.toml',
  'config.yaml',
  'config.yml',
  'config.json'
]

/** The languages of a Hugo site, the default first, each with its content folder relative to the site; none when the folders do not separate them. */
export function hugoLocales(keys: ReadonlyMap<string, unknown>): SiteLocale[] {
  const lower = new Map<string, unknown>()
  for (const [key, value] of keys) lower.set(key.toLowerCase(), value)
  const text = (key: string) => (typeof lower.get(key) === 'string' ? (lower.get(key) as string) : undefined)
  const codes = new Set<string>()
  for (const key of lower.keys()) {
    const parts = key.split('.')
    if (parts[0] === 'languages' && parts.length > 2) codes.add(parts[1]!)
  }
  const fallback = text('contentdir') ?? 'content'
  const wanted = (text('defaultcontentlanguage') ?? 'en').toLowerCase()
  const locales: Array<SiteLocale & {weight: number}> = []
  for (const code of codes) {
    const own = text(`languages.${code}.contentdir`)
    if (own === undefined && code !== wanted) return []
    const label = text(`languages.${code}.languagename`) ?? text(`languages.${code}.label`)
    const weight = lower.get(`languages.${code}.weight`)
    locales.push({
      code,
      lang: text(`languages.${code}.languagecode`) ?? code,
      ...(label !== undefined ? {label} : {}),
      folder: clean(own ?? fallback),
      weight: typeof weight === 'number' ? weight : Number.MAX_SAFE_INTEGER
    })
  }
  const first = locales.find((locale) => locale.code === wanted)
  if (!first || locales.length < 2) return []
  const others = locales.filter((locale) => locale !== first).sort((a, b) => a.weight - b.weight)
  return [first, ...others].map(({weight: _weight, ...locale}) => locale)
}

function clean(folder: string): string {
  return folder.replace(/^\.\/+|\/+$/g, '')
}

/** The scalar leaves of a YAML or JSON configuration as dotted keys (`languages.fr.contentDir`), at most `depth` levels deep. */
export function flattenKeys(
  value: unknown,
  prefix = '',
  depth = 0,
  into = new Map<string, unknown>()
): Map<string, unknown> {
  if (!isPlainObject(value) && (typeof value !== 'object' || value === null || Array.isArray(value))) return into
  if (depth > 8) return into
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const path = prefix === '' ? key : `${prefix}.${key}`
    if (typeof inner === 'object' && inner !== null && !Array.isArray(inner)) flattenKeys(inner, path, depth + 1, into)
    else into.set(path, inner)
  }
  return into
}
