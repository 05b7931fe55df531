/**
 * The trust rule of scripts a repository holds: read as data, never run.
 * Literal structures come back as values; anything else as an `Opaque` or
 * `CallValue` the caller skips; a text past the budget is refused unparsed.
 */
import {describe, expect, it} from 'vitest'
import {
  CallValue,
  literalValue,
  maxScriptNesting,
  Opaque,
  readScriptExport,
  readTomlKeys
} from '../../src/trust/index.js'

function valueOf(text: string, typescript = true): unknown {
  const read = readScriptExport(text, typescript)
  if (!read.ok) throw new Error(read.message)
  return read.value
}

/** The value as plain JSON-like data (null-prototype objects compare like `{}`). */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown
}

describe('readScriptExport', () => {
  it('reads export default, module.exports and names of top-level constants, through type wrappers', () => {
    expect(plain(valueOf('export default {a: 1, "b": [true, null, `t`, -2]} satisfies X'))).toEqual({
      a: 1,
      b: [true, null, 't', -2]
    })
    expect(plain(valueOf('const items = ["x"]; const s = {docs: [...items, "y"]} as const; export default s'))).toEqual(
      {
        docs: ['x', 'y']
      }
    )
    expect(plain(valueOf('module.exports = {a: {...{b: 1}, c: 2}}', false))).toEqual({a: {b: 1, c: 2}})
    expect(plain(valueOf('const c = {a: 1}!; export = c'))).toEqual({a: 1})
  })

  it('keeps calls as CallValue and everything else as Opaque, running nothing', () => {
    const value = valueOf(
      'import x from "y"; export default defineConfig({integrations: [starlight({title: "T"})], a: x, b: () => 1, c: 1 + 2, d: `${x}`, e: /re/})'
    ) as CallValue
    expect(value).toBeInstanceOf(CallValue)
    expect(value.callee).toBe('defineConfig')
    const config = value.args[0] as Record<string, unknown>
    const [integration] = config.integrations as CallValue[]
    expect(integration!.callee).toBe('starlight')
    for (const key of ['a', 'b', 'c', 'd', 'e']) expect(config[key]).toBeInstanceOf(Opaque)
    const spread = valueOf('export default [...make(), ...notBound]') as unknown[]
    expect(spread.every((item) => item instanceof Opaque)).toBe(true)
  })

  it('never takes a __proto__ key, and a name bound to itself is opaque', () => {
    const value = valueOf('const a = {x: a}; export default {"__proto__": {polluted: 1}, a}') as Record<string, unknown>
    expect(Object.getPrototypeOf(value)).toBe(null)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect((value.a as Record<string, unknown>).x).toBeInstanceOf(Opaque)
  })

  it('refuses a text nested past the budget, or that does not parse, or exports nothing, with a line', () => {
    const deep = readScriptExport('export default ' + '['.repeat(maxScriptNesting + 1), false)
    expect(deep).toMatchObject({ok: false, message: expect.stringMatching(/nest deeper than 200/) as string})
    expect(readScriptExport('export default {\n  a: ,\n}', false)).toMatchObject({ok: false, line: 2})
    expect(readScriptExport('const a = 1', false)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/exports no value/) as string
    })
    expect(readScriptExport('x'.repeat(1_000_001), false)).toMatchObject({ok: false})
  })

  it('gives the line of each object and array it made', () => {
    const read = readScriptExport('export default {\n  items: [\n    {a: 1},\n  ],\n}', false)
    if (!read.ok) throw new Error(read.message)
    const items = (read.value as {items: unknown[]}).items
    expect(read.lineOf(items)).toBe(2)
    expect(read.lineOf(items[0])).toBe(3)
  })
})

describe('literalValue', () => {
  it('reads ESTree nodes (as MDX expressions give them) the same way', () => {
    const node = {
      type: 'ObjectExpression',
      properties: [
        {type: 'Property', kind: 'init', key: {type: 'Identifier', name: 'a'}, value: {type: 'Literal', value: 'x'}},
        {type: 'Property', kind: 'get', key: {type: 'Identifier', name: 'b'}, value: {type: 'Literal', value: 1}}
      ]
    }
    expect(plain(literalValue(node).value)).toEqual({a: 'x'})
  })
})

describe('readTomlKeys', () => {
  it('reads the scalar keys under their tables, passing over arrays, inline tables and multi-line strings', () => {
    const keys = readTomlKeys(
      [
        'title = "Site" # a comment',
        "defaultContentLanguage = 'fr'",
        'list = [1, 2]',
        'text = """',
        'a = "not a key"',
        '"""',
        '[languages.fr]',
        '  languageName = "Français"',
        '  weight = 2',
        '[[menu.main]]',
        '  name = "x"',
        '[params]',
        'dark = true'
      ].join('\n')
    )
    expect(Object.fromEntries(keys)).toEqual({
      title: 'Site',
      defaultContentLanguage: 'fr',
      'languages.fr.languageName': 'Français',
      'languages.fr.weight': 2,
      'params.dark': true
    })
  })
})
