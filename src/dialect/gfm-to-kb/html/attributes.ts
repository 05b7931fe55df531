/** Reading hast element attributes as the conversion needs them. */
import type {Element} from 'hast'

/** The attribute `name` (hast property name) of `element` as a string, or undefined when absent or empty. */
export function attribute(element: Element, name: string): string | undefined {
  const value = element.properties?.[name]
  if (value === undefined || value === null || value === false) return undefined
  const text = Array.isArray(value) ? value.join(' ') : String(value)
  return text === '' ? undefined : text
}

/** The classes of `element`, lower-cased. */
export function classes(element: Element): string[] {
  const value = element.properties?.className
  return Array.isArray(value) ? value.map((name) => String(name).toLowerCase()) : []
}

/** A size in whole pixels (`300`, `300px`), or undefined. */
export function pixels(value: string | undefined): number | undefined {
  const match = value === undefined ? null : /^\s*(\d+)(?:\.0*)?\s*(?:px)?\s*$/i.exec(value)
  return match ? Number.parseInt(match[1]!, 10) : undefined
}

/** The value of CSS property `name` in an element's `style` attribute, if set. */
export function styleValue(element: Element, name: string): string | undefined {
  const style = attribute(element, 'style')
  if (!style) return undefined
  for (const declaration of style.split(';')) {
    const colon = declaration.indexOf(':')
    if (colon !== -1 && declaration.slice(0, colon).trim().toLowerCase() === name)
      return declaration.slice(colon + 1).trim()
  }
  return undefined
}

/** The first element named `tagName` inside `element`, searched depth first. */
export function findElement(element: Element, tagName: string): Element | undefined {
  for (const child of element.children) {
    if (child.type !== 'element') continue
    if (child.tagName === tagName) return child
    const found = findElement(child, tagName)
    if (found) return found
  }
  return undefined
}
