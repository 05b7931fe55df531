/**
 * The one place that relies on mdast-util-to-markdown beyond its public
 * options (handlers, join, unsafe, extensions). Each rule here is one the
 * options cannot express; each reads or sets a field of the serialiser's
 * `State` whose shape is typed but whose contents (the unsafe patterns the
 * library ships, the names of the constructs it enters) are the library's
 * own. Were the library to change them, only this module would need to
 * follow (the round-trip laws in test/dialect/ would say so).
 */
import type {Nodes} from 'mdast'
import type {Join, SafeConfig, State, Unsafe} from 'mdast-util-to-markdown'

/**
 * A cheaper `state.safe`. The library's `safe` tries every unsafe pattern
 * in scope (some 60, each a regular expression run over the text) on every
 * text, which made text the costliest node to serialise. A pattern can only
 * match where its character is, so the patterns whose character occurs
 * neither in the value nor in its context (`before`, `after`) cannot change
 * the result: they are left out for the call (`state.safe` reads
 * `state.unsafe` when called; the full list is put back after).
 */
export function safe(state: State, value: string, config: SafeConfig): string {
  const subject = (config.before || '') + value + (config.after || '')
  const all = state.unsafe
  const patterns = all.filter((pattern) => subject.includes(pattern.character))
  if (patterns.length === all.length) return state.safe(value, config)
  state.unsafe = patterns
  try {
    return state.safe(value, config)
  } finally {
    state.unsafe = all
  }
}

/** The characters named by the unsafe patterns of a serialisation, by its `unsafe` list. */
const patternCharacters = new WeakMap<Unsafe[], Set<string>>()

/** Whether some unsafe pattern names `character`: `state.safe` escapes or encodes no other character. */
export function isUnsafeCharacter(state: State, character: string): boolean {
  let characters = patternCharacters.get(state.unsafe)
  if (!characters) {
    characters = new Set(state.unsafe.map((pattern) => pattern.character))
    patternCharacters.set(state.unsafe, characters)
  }
  return characters.has(character)
}

/**
 * The constructs the library enters for text it writes raw or in full
 * (autolinks, link destinations and titles, reference labels): an escape
 * added there would change what they say.
 */
export const rawConstructs = [
  'autolink',
  'destinationLiteral',
  'destinationRaw',
  'reference',
  'titleQuote',
  'titleApostrophe'
] as const

const raw = new Set<string>(rawConstructs)

/** Whether the serialiser is inside one of `rawConstructs`. */
export function inRawConstruct(state: State): boolean {
  return state.stack.some((name) => raw.has(name))
}

/**
 * What follows an `&` that starts a character reference: a name, a decimal
 * or a hexadecimal number, then `;`.
 */
const characterReference = '(?:[A-Za-z][A-Za-z0-9]{0,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});'

/**
 * Narrow the library's `&` pattern (an `&` before a letter or `#`) to real
 * character references: it escapes `AT\&T` and `?a=1\&b=2` in a URL, the
 * platform writes them bare, and a body it returns must come back
 * unchanged. An extension's `unsafe` can only add patterns, so the
 * library's own is replaced in the state (set up before the first handler
 * runs: the root's handler calls this).
 */
export function narrowCharacterReferences(state: State): void {
  state.unsafe = state.unsafe.map((pattern) =>
    pattern.character === '&' && pattern.after === '[#A-Za-z]' ? {...pattern, after: characterReference} : pattern
  )
}

/**
 * Whether `state`'s joins put a blank line (or more) between two flow
 * children, as the library's `containerFlow` reads them (the last join with
 * an answer wins; `false` or `true` means a blank line or more; none, one).
 */
export function blankBetween(left: Nodes, right: Nodes, parent: Parameters<Join>[2], state: State): boolean {
  for (let index = state.join.length - 1; index >= 0; index--) {
    const result = state.join[index]!(left as never, right as never, parent, state)
    if (typeof result === 'number') return result > 0
    if (typeof result === 'boolean') return true
  }
  return true
}
