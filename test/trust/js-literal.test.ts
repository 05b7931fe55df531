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

describe('readScriptExport, the forms of configuration files', () => {
  it('reads an exported constant, `module["exports"]`, keys written as strings and numbers, and signed numbers', () => {
    expect(
      plain(valueOf('export const base = "/docs"; export default {base, [1]: "n", 2: "two", "s": +3, m: -4}'))
    ).toEqual({1: 'n', 2: 'two', base: '/docs', s: 3, m: -4})
    expect(plain(valueOf('other = 1; module["exports"] = {a: `t`}', false))).toEqual({a: 't'})
    expect(valueOf('export default undefined')).toBeUndefined()
  })

  it('skips the holes of an array, and names what is not a value: an operator, a spread of no list, a call of no name', () => {
    const value = valueOf(
      'const list = {a: 1}; export default [1, , 2, -"x", !true, ...list, ...{b: 2}, (() => 1)(), a[b]()]'
    )
    const items = value as unknown[]
    expect(items.slice(0, 2)).toEqual([1, 2])
    expect(items.slice(2).map((item) => (item as Opaque).what)).toEqual([
      'an expression with `-`',
      'an expression with `!`',
      'no list',
      'no list',
      'a call',
      'a call'
    ])
  })

  it('reads a call of a dotted name, its spread arguments opaque', () => {
    const value = valueOf('export default site.config.make({a: 1}, ...rest)') as CallValue
    expect(value.callee).toBe('site.config.make')
    expect(plain(value.args[0])).toEqual({a: 1})
    expect((value.args[1] as Opaque).what).toBe('a spread')
    expect((valueOf('export default a[0].b()') as Opaque).what).toBe('a call')
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

  it('reads ESTree literals, keys and template strings; a regular expression or big number is opaque', () => {
    const literal = (value: unknown, extra: object = {}) => ({type: 'Literal', value, ...extra})
    const property = (key: object, value: object, computed = false) => ({
      type: 'Property',
      kind: 'init',
      key,
      value,
      computed
    })
    const node = {
      type: 'ObjectExpression',
      loc: {start: {line: 3}},
      properties: [
        property(literal('s'), literal(null)),
        property(literal(7), literal(true)),
        property(literal(true), literal(1), true),
        property({type: 'Identifier', name: 'k'}, literal(2), true),
        property({type: 'Identifier', name: 'r'}, literal(null, {regex: {pattern: 'x', flags: ''}, value: /x/})),
        property(
          {type: 'Identifier', name: 't'},
          {type: 'TemplateLiteral', expressions: [], quasis: [{value: {cooked: null, raw: 'raw\\u'}}]}
        )
      ]
    }
    const read = literalValue(node)
    const value = read.value as Record<string, unknown>
    expect(Object.keys(value)).toEqual(['7', 's', 'r', 't'])
    expect([value.s, value['7'], value.t]).toEqual([null, true, 'raw\\u'])
    expect((value.r as Opaque).what).toBe('a regular expression or big number')
    expect(read.lineOf(value)).toBe(3)
    expect(read.lineOf('not an object')).toBeUndefined()
    expect(read.lineOf(null)).toBeUndefined()
  })

  it('refuses an ESTree nested deeper than the budget as opaque', () => {
    let node: object = {type: 'Literal', value: 1}
    for (let depth = 0; depth <= maxScriptNesting + 1; depth++) node = {type: 'ArrayExpression', elements: [node]}
    let value = literalValue(node).value
    while (Array.isArray(value)) value = value[0]
    expect((value as Opaque).what).toBe('an expression nested too deep')
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
