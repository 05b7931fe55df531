/**
 * The warning for a component no family knows: one per page and name,
 * counting its places and naming the props that are not shown (the
 * union over its places), so a page of 60 `<Foo>`s gives one line.
 */
import type {Element} from 'hast'
import {find, html} from 'property-information'
import type {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {warn} from '../../messages.js'

interface Unknown {
  message: VFileMessage
  count: number
  props: Set<string>
}

// Per file: the warning of each unknown component name, updated as more places are found.
const seen = new WeakMap<VFile, Map<string, Unknown>>()

/** The props of `element` as written (hast names them in camel case), without the conversion's own. */
function propsOf(element: Element): string[] {
  return Object.keys(element.properties)
    .filter((key) => !key.startsWith('dataKb'))
    .map((key) => find(html, key).attribute)
}

function reason({count, props}: Unknown, name: string): string {
  const places = count === 1 ? '' : ` (${count} places, the first here)`
  const lost =
    props.size === 0
      ? 'its content is kept without it'
      : `its content is kept; its props ${[...props].map((prop) => `\`${prop}\``).join(', ')} are not shown`
  return `\`<${name}>\`${places} has no counterpart on the platform: ${lost}. Write what it shows as Markdown if it matters.`
}

/** Reports the unknown component `element` named `name` on `file` (see the module comment). */
export function reportUnknownComponent(file: VFile, element: Element, name: string): void {
  let names = seen.get(file)
  if (!names) seen.set(file, (names = new Map()))
  const known = names.get(name)
  if (known) {
    known.count++
    for (const prop of propsOf(element)) known.props.add(prop)
    known.message.reason = known.message.message = reason(known, name)
    return
  }
  const entry: Unknown = {
    message: warn(file, element, 'kb-html-unwrapped', ''),
    count: 1,
    props: new Set(propsOf(element))
  }
  entry.message.reason = entry.message.message = reason(entry, name)
  names.set(name, entry)
}
