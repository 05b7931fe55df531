/**
 * A cheaper `state.safe`. mdast-util-to-markdown's `safe` tries every unsafe
 * pattern in scope (some 60, each a regular expression run over the text)
 * on every text, which made text the costliest node to serialise. A pattern
 * can only match where its character is, so the patterns whose character
 * occurs neither in the value nor in its context (`before`, `after`) cannot
 * change the result: they are left out for the call.
 */
import type {SafeConfig, State} from 'mdast-util-to-markdown'

/** `state.safe(value, config)`, without the unsafe patterns that cannot match. */
export function safe(state: State, value: string, config: SafeConfig): string {
  const subject = (config.before || '') + value + (config.after || '')
  const all = state.unsafe
  const patterns = all.filter((pattern) => subject.includes(pattern.character))
  if (patterns.length === all.length) return state.safe(value, config)
  // `state.safe` reads the list when called; the full list is put back after.
  state.unsafe = patterns
  try {
    return state.safe(value, config)
  } finally {
    state.unsafe = all
  }
}

/** The characters named by the unsafe patterns of a serialisation, by its `unsafe` list. */
const patternCharacters = new WeakMap<State['unsafe'], Set<string>>()

/**
 * Whether some unsafe pattern names `character`: `state.safe` escapes or
 * encodes no other character.
 */
export function isUnsafeCharacter(state: State, character: string): boolean {
  let characters = patternCharacters.get(state.unsafe)
  if (!characters) {
    characters = new Set(state.unsafe.map((pattern) => pattern.character))
    patternCharacters.set(state.unsafe, characters)
  }
  return characters.has(character)
}
