/**
 * The plain keys of a TOML file (a Hugo `hugo.toml`): `key = value` lines
 * whose value is a string, a number or a boolean, under their `[table]`
 * headers, as dotted paths (`languages.fr.languageName`). Arrays, inline
 * tables and multi-line strings are passed over: a caller reads settings,
 * not a document. Linear in the text, line by line; never throws.
 */

/** The largest TOML text read, in UTF-16 units (a site configuration is a few KB). */
export const maxTomlLength = 256_000

const header = /^\[\s*([^[\]]+?)\s*\]\s*(?:#.*)?$/
const keyText = /^[A-Za-z0-9_\-."' ]+$/

/** The scalar keys of `text` by dotted path; empty when it is too long. */
export function readTomlKeys(text: string): Map<string, string | number | boolean> {
  const keys = new Map<string, string | number | boolean>()
  if (text.length > maxTomlLength) return keys
  let table: string[] = []
  let skipUntil: string | undefined
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (skipUntil !== undefined) {
      if (line.includes(skipUntil)) skipUntil = undefined
      continue
    }
    if (line === '' || line.startsWith('#')) continue
    if (line.startsWith('[[')) {
      // An array of tables: its keys are no settings of one place.
      table = ['[]']
      continue
    }
    const opened = header.exec(line)
    if (opened) {
      table = keyPath(opened[1]!)
      continue
    }
    const equals = line.indexOf('=')
    const key = equals === -1 ? '' : line.slice(0, equals).trim()
    if (!keyText.test(key)) continue
    const value = line.slice(equals + 1).trim()
    if (value.startsWith('"""') || value.startsWith("'''")) {
      const quote = value.slice(0, 3)
      if (!value.slice(3).includes(quote)) skipUntil = quote
      continue
    }
    const scalar = scalarOf(value)
    if (scalar !== undefined && !table.includes('[]')) keys.set([...table, ...keyPath(key)].join('.'), scalar)
  }
  return keys
}

/** A dotted key's parts, quotes removed (`"zh-cn".label` is `zh-cn`, `label`). */
function keyPath(written: string): string[] {
  return written.split('.').map((part) => part.trim().replace(/^"(.*)"$|^'(.*)'$/, '$1$2'))
}

/** A string, number or boolean value, with a trailing comment; undefined for anything else. */
function scalarOf(value: string): string | number | boolean | undefined {
  const basic = /^"((?:[^"\\]|\\.)*)"\s*(?:#.*)?$/.exec(value)
  if (basic) return basic[1]!.replace(/\\(["\\])/g, '$1')
  const literal = /^'([^']*)'\s*(?:#.*)?$/.exec(value)
  if (literal) return literal[1]!
  const bare = value.replace(/\s+#.*$/, '')
  if (bare === 'true' || bare === 'false') return bare === 'true'
  if (/^[+-]?\d+(?:\.\d+)?$/.test(bare)) return Number(bare)
  return undefined
}
