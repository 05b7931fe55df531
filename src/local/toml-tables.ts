/**
 * The plain part of a TOML file, read as data: `[table]` and
 * `[table.sub]` headers and `key = value` lines whose value is a string
 * (basic or literal, on one line), a number, a boolean or a date. What it
 * does not read (arrays, inline tables, multi-line strings, arrays of
 * tables) is skipped: a site's parameters are mostly such plain values, and
 * no value is ever run.
 */

const header = /^\[([A-Za-z0-9_.\- "']+)\][ \t]*(?:#.*)?$/
const pair = /^([A-Za-z0-9_-]+|"[^"]*")[ \t]*=[ \t]*(.*)$/

/** The tables and plain values of `text` (see the module comment). */
export function readTomlTables(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {}
  let table = root
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) continue
    if (line.startsWith('[[')) {
      // An array of tables: its keys belong to no table read here.
      table = {}
      continue
    }
    const opened = header.exec(line)
    if (opened) {
      table = tableAt(root, opened[1]!)
      continue
    }
    const entry = pair.exec(line)
    if (!entry) continue
    const value = plainValue(entry[2]!)
    if (value !== undefined) table[entry[1]!.replace(/^"|"$/g, '')] = value
  }
  return root
}

/** The table named by a dotted header, made where missing. */
function tableAt(root: Record<string, unknown>, name: string): Record<string, unknown> {
  let table = root
  for (const part of name.split('.').map((key) => key.trim().replace(/^["']|["']$/g, ''))) {
    const next = Object.hasOwn(table, part) ? table[part] : undefined
    if (next && typeof next === 'object' && !Array.isArray(next)) table = next as Record<string, unknown>
    else table = table[part] = {}
  }
  return table
}

/** A one-line string, number, boolean or date; undefined for anything else. */
function plainValue(text: string): string | number | boolean | undefined {
  const basic = /^"((?:[^"\\]|\\.)*)"[ \t]*(?:#.*)?$/.exec(text)
  if (basic) return basic[1]!.replace(/\\(["\\nt])/g, (_, char: string) => ({n: '\n', t: '\t'})[char] ?? char)
  const literal = /^'([^']*)'[ \t]*(?:#.*)?$/.exec(text)
  if (literal) return literal[1]
  const comment = text.indexOf('#')
  const bare = (comment === -1 ? text : text.slice(0, comment)).trim()
  if (bare === 'true' || bare === 'false') return bare === 'true'
  if (/^[+-]?\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(bare)) return Number(bare.replace(/_/g, ''))
  if (/^\d{4}-\d{2}-\d{2}/.test(bare)) return bare
  return undefined
}
