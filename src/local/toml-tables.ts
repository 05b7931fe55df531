/** The dotted keys of a TOML file as tables (`params.x.y = 1` is `{params: {x: {y: 1}}}`). */

/** `keys` (dotted paths, as `readTomlKeys` answers them) as nested tables. */
export function nestedKeys(keys: ReadonlyMap<string, unknown>): Record<string, unknown> {
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
