/**
 * The CSS inside an uploaded SVG (`<style>` elements, `style` attributes and
 * presentation attributes such as `fill="url(...)"`), made unable to fetch
 * anything: a `url(...)` to anything but a `#fragment` of the same image,
 * an `image-set(...)` and an `@import` go. Parsed by css-tree (jsdom's own
 * CSS parser), never by a regular expression: CSS escapes (`\75 rl(`) and
 * comments make `url(` impossible to find by its spelling. What css-tree
 * cannot parse (a `Raw` node) is dropped when it could name a resource.
 */
import {generate, parse, walk, type CssNode} from 'css-tree'

/** Functions that take a URL without spelling `url(`: `image-set("x.png" 1x)`, `src("x")`. */
const urlFunctions = /^(-webkit-)?image-set$|^src$/i

/** Raw (unparsed) text that may hide a resource: a URL function, an import or an escape. */
const suspectRaw = /url|image-set|src\s*\(|@import|\\/i

/**
 * Text that could name a resource at all. CSS without it (most of it: a
 * colour, a width) is kept as written, unparsed: without an escape, a
 * resource needs `url`, `image-set`, `src` or `@import` spelled out.
 */
const mayFetch = /\\|url|image-set|src|@import/i

/** Whether `node` (a value, a prelude) names a resource outside the image. */
function fetchesOutside(node: CssNode): boolean {
  let found = false
  walk(node, (inner) => {
    if (inner.type === 'Url' && !inner.value.trim().startsWith('#')) found = true
    else if (inner.type === 'Function' && urlFunctions.test(inner.name)) found = true
    else if (inner.type === 'Raw' && suspectRaw.test(inner.value)) found = true
  })
  return found
}

/** Removes from `ast` every declaration, at-rule and raw rule that could fetch something. */
function prune(ast: CssNode): void {
  walk(ast, (node, item, list) => {
    if (!list || !item) return
    const drop =
      (node.type === 'Declaration' && fetchesOutside(node.value)) ||
      (node.type === 'Atrule' &&
        (node.name.toLowerCase() === 'import' || (node.prelude !== null && fetchesOutside(node.prelude)))) ||
      (node.type === 'Raw' && suspectRaw.test(node.value))
    if (drop) list.remove(item)
  })
}

/** The stylesheet `css` (a `<style>` element's text) without anything that fetches. */
export function cleanStylesheet(css: string): string {
  if (!mayFetch.test(css)) return css
  const ast = parse(css, {context: 'stylesheet', parseValue: true, parseCustomProperty: true})
  prune(ast)
  return generate(ast)
}

/** The declarations `css` (a `style` attribute) without those that fetch. */
export function cleanDeclarations(css: string): string {
  if (!mayFetch.test(css)) return css
  const ast = parse(css, {context: 'declarationList', parseValue: true, parseCustomProperty: true})
  prune(ast)
  return generate(ast)
}

/**
 * Whether the attribute value `value` (read as a CSS value, as SVG reads its
 * presentation attributes) names a resource outside the image.
 */
export function valueFetchesOutside(value: string): boolean {
  if (!mayFetch.test(value)) return false
  try {
    return fetchesOutside(parse(value, {context: 'value', parseCustomProperty: true}))
  } catch {
    return true
  }
}
