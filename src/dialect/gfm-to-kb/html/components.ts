/**
 * Components of docs sites written as capitalised JSX-like tags (MDX,
 * Mintlify, Docusaurus). HTML would read `<Note>` as an unknown `note`
 * element and `<Link>` as the void `link`, so before parsing a capitalised
 * tag name is turned into a custom element name of the same length
 * (`<T-bs>` for `<Tabs>`: offsets stay valid) and the element is converted
 * by its name as written, as `../components/` says (which MDX shares).
 */
export {componentHandler, componentTag, isKnownComponent} from '../components/index.js'

const capitalised = /<(\/?)([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)(?=[\s/>])/g

/**
 * `html` with every capitalised, mixed-case tag name (`Note`, `TabItem`;
 * not `BR` or `DIV`, which are HTML) made a custom element name of the
 * same length (its second character a dash), so that no component is
 * parsed as the HTML element of the same name.
 */
export function maskComponents(html: string): string {
  if (!/<\/?[A-Z]/.test(html)) return html
  return html.replace(capitalised, (_, slash: string, name: string) => `<${slash}${name[0]}-${name.slice(2)}`)
}

/** The component name written at `offset` of `html` (the `<` of its tag), if a masked one starts there. */
export function componentAt(html: string, offset: number): string | undefined {
  capitalised.lastIndex = offset
  const match = capitalised.exec(html)
  capitalised.lastIndex = 0
  return match && match.index === offset && match[1] === '' ? match[2] : undefined
}

/** Whether the masked hast tag name `tagName` is a component's. */
export function isMaskedComponent(tagName: string): boolean {
  return tagName.length > 1 && tagName.charCodeAt(1) === 45 && /^[a-z]-[a-z0-9]*$/.test(tagName)
}
