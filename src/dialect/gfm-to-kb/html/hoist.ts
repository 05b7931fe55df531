/**
 * A closing tag written right after a list, at the start of the line:
 *
 *     <Warning>
 *       1. install
 *     </Warning>
 *
 * CommonMark keeps it in the last list item (a line holding only a
 * component's closing tag does not end the item), where it closes nothing.
 * It is taken out of the list, to stand after it, where its author put it.
 */
import type {Html, List, Nodes, Parents} from 'mdast'

const closingTagsOnly = /^(?:\s*<\/[A-Za-z][\w-]*\s*>)+\s*$/

/** The closing-tag line at the end of `list`'s last item (or of a list nested last in it) written left of the item's content. */
function trailingClose(list: List): {html: Html; parent: Parents} | undefined {
  const item = list.children[list.children.length - 1]
  const last = item?.children[item.children.length - 1] as Nodes | undefined
  if (!item || !last) return undefined
  if (last.type === 'list') return trailingClose(last)
  const column = last.position?.start.column
  const indent = item.children[0]?.position?.start.column
  if (
    last.type !== 'html' ||
    !closingTagsOnly.test(last.value) ||
    column === undefined ||
    indent === undefined ||
    column >= indent
  )
    return undefined
  return {html: last, parent: item}
}

/** Moves such closing tags out of the lists among `parent`'s children, each to right after its list. */
export function hoistClosingTags(parent: Parents): void {
  for (let index = 0; index < parent.children.length; index++) {
    const child = parent.children[index]!
    const found = child.type === 'list' ? trailingClose(child) : undefined
    if (!found) continue
    found.parent.children.pop()
    parent.children.splice(index + 1, 0, found.html as (typeof parent.children)[number])
  }
}
