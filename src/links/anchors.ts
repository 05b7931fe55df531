/**
 * Anchors of an HTML page: the ids of its elements and the names of its
 * `<a name>` targets, which a `#fragment` of a link must name.
 */
import {fromHtml} from 'hast-util-from-html'

type HastNode = {type: string; tagName?: string; properties?: Record<string, unknown>; children?: HastNode[]}

/** Every id and `<a name>` of the page `html`. */
export function anchorsOf(html: string): Set<string> {
  const anchors = new Set<string>()
  const stack: HastNode[] = [fromHtml(html) as HastNode]
  for (let node = stack.pop(); node; node = stack.pop()) {
    const properties = node.properties
    if (properties) {
      if (typeof properties.id === 'string' && properties.id !== '') anchors.add(properties.id)
      if (node.tagName === 'a' && typeof properties.name === 'string' && properties.name !== '')
        anchors.add(properties.name)
    }
    if (node.children) stack.push(...node.children)
  }
  return anchors
}

/**
 * Whether a fragment names an anchor at all. Single-page applications route
 * by it (`#kb/article/1`, `#!/home`), text fragments (`#:~:text=`) and
 * GitHub's line marks (`#L10`, `#L10-L20`) are no elements of the page.
 */
export function isAnchorFragment(fragment: string): boolean {
  return (
    !fragment.includes('/') &&
    !fragment.startsWith('!') &&
    !fragment.startsWith(':~:') &&
    !/^L\d+(?:C\d+)?(?:-L\d+(?:C\d+)?)?$/.test(fragment)
  )
}

/**
 * The fragments of `fragments` the page does not hold. GitHub prefixes the
 * ids of rendered Markdown with `user-content-` and resolves the bare
 * fragment with a script: either form counts.
 */
export function missingAnchors(fragments: readonly string[], anchors: ReadonlySet<string>): string[] {
  return fragments.filter(
    (fragment) => isAnchorFragment(fragment) && !anchors.has(fragment) && !anchors.has(`user-content-${fragment}`)
  )
}
