/**
 * Parsing with fewer micromark constructs when the source shows they cannot
 * occur. micromark tries a construct wherever it may start (a table at every
 * line, an email autolink at every word), and on short articles those
 * attempts were a large share of the parse. A failed attempt leaves no
 * trace, so leaving out a construct that cannot match gives the same events.
 *
 * It is the one place that relies on micromark beyond its public extension
 * API: the names its constructs carry (`table`, `emailAutolink`) and the hooks
 * an extension fills. The serialising side's counterpart is
 * `plugins/to-markdown-adapter.ts`.
 */
import type {Construct, Extension} from 'micromark-util-types'

/** A construct, by name, that can only occur in a source for which `mayOccur` holds. */
export interface OptionalConstruct {
  name: string
  mayOccur: (source: string) => boolean
}

/**
 * A table needs a delimiter row holding a `|`, or a `:` next to a `-`
 * (`a\n:-` is a one-column table); micromark reads the characters as
 * written, so a source without them has no table.
 */
export const tableConstruct: OptionalConstruct = {name: 'table', mayOccur: (source) => /\||:-|-:/.test(source)}

/**
 * The email autolink literal is tried at the start of every word and scans
 * it for the `@` it needs (character references are not decoded yet).
 */
export const emailAutolinkConstruct: OptionalConstruct = {
  name: 'emailAutolink',
  mayOccur: (source) => source.includes('@')
}

const hooks = ['document', 'contentInitial', 'flowInitial', 'flow', 'string', 'text'] as const

/**
 * A function answering the extensions to parse a source with: `extensions`
 * without the optional constructs that cannot occur in it. Each variant is
 * built once, on first use.
 */
export function syntaxVariants(
  extensions: Extension[],
  optional: OptionalConstruct[]
): (source: string) => Extension[] {
  const variants = new Map<number, Extension[]>()
  return (source) => {
    let absent = 0
    for (let index = 0; index < optional.length; index++) {
      if (!optional[index]!.mayOccur(source)) absent |= 1 << index
    }
    let variant = variants.get(absent)
    if (!variant) {
      const names = new Set(optional.filter((_, index) => absent & (1 << index)).map((construct) => construct.name))
      variant = names.size === 0 ? extensions : extensions.map((extension) => withoutConstructs(extension, names))
      variants.set(absent, variant)
    }
    return variant
  }
}

/** `extension` with the constructs named in `names` left out of every hook. */
function withoutConstructs(extension: Extension, names: Set<string>): Extension {
  const result: Extension = {...extension}
  for (const hook of hooks) {
    const map = extension[hook]
    if (!map) continue
    const kept: Record<string, Construct[]> = {}
    for (const [code, value] of Object.entries(map)) {
      const list: Array<Construct | undefined> = Array.isArray(value) ? value : [value]
      const rest = list.filter(
        (construct): construct is Construct => construct !== undefined && !names.has(construct.name ?? '')
      )
      if (rest.length > 0) kept[code] = rest
    }
    result[hook] = kept
  }
  return result
}
