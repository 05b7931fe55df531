/**
 * The dialect's tags share one tokenizer and one transform, so a processor
 * with only some construct plugins (`remarkKbUnderline` alone) still builds
 * every dialect node, and serialising one whose plugin is missing failed
 * ("Cannot handle unknown node `mark`"). The nodes of constructs no plugin
 * registered go back to what the source says there, as an `html` node: the
 * span is written back unchanged, as without the dialect.
 */
import type {Html, Nodes, Parents, Root} from 'mdast'
import type {Options as ToMarkdownExtension} from 'mdast-util-to-markdown'

/** Node types the dialect's transform builds (a sized image is an `image` with a width or height). */
const dialectTypes = new Set(['underline', 'mark', 'articleLink', 'anchorLink', 'attachment', 'attachmentsGroup', 'hintBlock', 'details', 'detailsSummary', 'drawio', 'video'])

/** The node types `extensions` (nested ones included) have handlers for. */
export function handledTypes(extensions: readonly ToMarkdownExtension[]): string[] {
  return extensions.flatMap((extension) => [...Object.keys(extension.handlers ?? {}), ...handledTypes(extension.extensions ?? [])])
}

/**
 * Replaces, in `tree`, each dialect node whose type is not in `handled` by
 * an `html` node with its source text (from `source`, by position). A node
 * without a position is left as it is.
 */
export function unregisteredToHtml(tree: Root, source: string, handled: ReadonlySet<string>): void {
  // An explicit stack: a body nests deeper than the call stack goes.
  const parents: Parents[] = [tree]
  for (let parent = parents.pop(); parent; parent = parents.pop()) {
    const children = parent.children as Nodes[]
    for (let index = 0; index < children.length; index++) {
      const child = children[index]!
      const sized = child.type === 'image' && ('width' in child || 'height' in child)
      const start = child.position?.start.offset
      const end = child.position?.end.offset
      if ((dialectTypes.has(child.type) || sized) && !handled.has(child.type) && start !== undefined && end !== undefined) {
        children[index] = {type: 'html', value: source.slice(start, end), position: child.position} as Html
        continue
      }
      if ('children' in child) parents.push(child as Parents)
    }
  }
}
