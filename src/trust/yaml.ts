/**
 * The one YAML reader for what a repository holds (front matter,
 * `_category_.yml`, `_permissions.yml`, `mkdocs.yml`): YAML from a cloned
 * repository is data, and reading it costs bounded work. The `yaml` package
 * throws on an alias bomb (`Excessive alias count`) and runs out of memory
 * on flow collections nested some 20,000 levels; uncaught, either stopped a
 * whole run naming no file. Here every way a text can fail comes back as a
 * problem with its line, for the caller to report against its file, and
 * nothing is thrown.
 */
import {isAlias, isScalar, LineCounter, parseDocument, visit, type Document} from 'yaml'

/** The largest YAML text read, in bytes of UTF-16 (a `mkdocs.yml` of a large site is some tens of KB).
 * The `yaml` package's own costs grow faster than the text on a few shapes
 * (a node with thousands of anchors or tags): the bound keeps them under
 * about two seconds. */
export const maxYamlLength = 128_000

/**
 * How far aliases may expand (the `yaml` package's `maxAliasCount`: the
 * uses of an anchor times the aliases inside it). Configuration repeats an
 * anchor a few times; a bomb needs thousands.
 */
export const maxYamlAliases = 50

/** How deep flow collections (`[`, `{`) may nest; real files nest a few levels. */
export const maxYamlFlowNesting = 100

/** A YAML text read: its document, its value, and the line of a node or an offset. */
export interface YamlRead {
  ok: true
  document: Document
  /** The value, with aliases expanded within `maxYamlAliases`. */
  data: unknown
  lineCounter: LineCounter
  /** The line (1-based, in the text) of an offset, or of a node's start (1 for a node without a place). */
  lineOf: (at: number | unknown) => number
}

/** Why a YAML text could not be read, and where (line and column are 1-based, in the text). */
export interface YamlProblem {
  ok: false
  line: number
  column?: number
  /** What is wrong, in one sentence without a trailing period (e.g. `Aliases expand past 50 nodes ...`). */
  message: string
}

/**
 * Reads `text` as YAML within the limits above. Never throws: a syntax
 * error (the first; later ones mostly follow from it), a text over
 * `maxYamlLength`, flow collections nested past `maxYamlFlowNesting` and
 * aliases that expand past `maxYamlAliases` each come back as a `YamlProblem`.
 */
export function readYaml(text: string): YamlRead | YamlProblem {
  if (text.length > maxYamlLength)
    return {
      ok: false,
      line: 1,
      message: `It is ${text.length} characters long, more than the ${maxYamlLength} kbsync reads`
    }
  const deep = flowTooDeep(text)
  if (deep !== undefined) {
    const before = text.slice(0, deep)
    const line = before.split('\n').length
    const column = deep - before.lastIndexOf('\n')
    return {ok: false, line, column, message: `Brackets nest deeper than ${maxYamlFlowNesting} levels`}
  }
  const lineCounter = new LineCounter()
  // The package checks each key of a mapping against every other one (20,000 keys took 22 s): `duplicateKey` does it linearly.
  const document = parseDocument(text, {lineCounter, prettyErrors: false, uniqueKeys: false})
  const lineOf = (at: number | unknown): number => {
    const offset = typeof at === 'number' ? at : (at as {range?: [number, number, number]} | null)?.range?.[0]
    return offset === undefined ? 1 : lineCounter.linePos(offset).line
  }
  const error = document.errors[0]
  if (error) {
    const {line, col} = lineCounter.linePos(error.pos[0])
    return {ok: false, line, column: col, message: error.message.split('\n')[0]!}
  }
  try {
    const duplicate = duplicateKey(document)
    if (duplicate !== undefined) return {ok: false, line: lineOf(duplicate), message: 'Map keys must be unique'}
    return {ok: true, document, data: document.toJS({maxAliasCount: maxYamlAliases}), lineCounter, lineOf}
  } catch (caught) {
    // The one error `toJS` raises on data (an alias bomb); anything else is reported the same way, never thrown.
    const alias = firstAlias(document)
    const reason = caught instanceof ReferenceError && /alias/i.test(caught.message)
    const message = reason
      ? `Aliases (\`*name\`) expand past ${maxYamlAliases} nodes; write the values out, or use fewer aliases`
      : `The YAML could not be read (${caught instanceof Error ? caught.message : String(caught)})`
    return {ok: false, line: alias === undefined ? 1 : lineOf(alias), message}
  }
}

/**
 * The offset of the bracket that opens a flow collection past
 * `maxYamlFlowNesting`, or undefined. Counts every `[`/`{` against every
 * `]`/`}`, quoted or not: it can only overestimate, and text that nests a
 * hundred brackets deep is not configuration. Linear.
 */
function flowTooDeep(text: string): number | undefined {
  let depth = 0
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index)
    if (char === 0x5b || char === 0x7b) {
      if (++depth > maxYamlFlowNesting) return index
    } else if ((char === 0x5d || char === 0x7d) && depth > 0) depth--
  }
  return undefined
}

/** The offset of the first alias node in `document`, if any. */
function firstAlias(document: Document): number | undefined {
  let found: number | undefined
  visit(document, {
    Alias(_, node) {
      if (isAlias(node) && node.range) found = node.range[0]
      return visit.BREAK
    }
  })
  return found
}

/** The first key (node) that repeats an earlier key of its mapping, if any: scalar keys, compared by value. */
function duplicateKey(document: Document): unknown {
  let found: unknown
  visit(document, {
    Map(_, map) {
      const seen = new Set<unknown>()
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue
        if (seen.has(pair.key.value)) {
          found = pair.key
          return visit.BREAK
        }
        seen.add(pair.key.value)
      }
      return undefined
    }
  })
  return found
}
