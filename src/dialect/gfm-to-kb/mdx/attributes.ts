/**
 * The attributes of an MDX JSX element written as HTML attributes, so that
 * the component goes on to the same conversion as one written in HTML
 * (`../html/`): string values as written, expression values by their
 * static value (see `static-value.ts`): a string or number as text, `true`
 * as a bare attribute, `false` and `null` left out, a `style` object as
 * CSS, any other array or object as JSON (a component's handler reads it
 * back, e.g. the `values` of Docusaurus tabs). An expression with no static
 * value and a `{...spread}` are left out and named in `lost`.
 */
import type {Program} from 'estree'
import type {MdxJsxAttribute, MdxJsxExpressionAttribute} from 'mdast-util-mdx-jsx'
import {readProgram, type Scope, type StaticValue} from './static-value.js'

/** What an element's attributes could not keep: a description per lost prop. */
export type Lost = string[]

/** Attributes that set an element's content (Astro's `set:html`, `set:text`; React's `dangerouslySetInnerHTML`). */
const contentAttributes = new Set(['set:html', 'set:text', 'dangerouslySetInnerHTML'])

/** JSX spellings of HTML attribute names. */
const htmlNames: Readonly<Record<string, string>> = {className: 'class', htmlFor: 'for'}

/** `value` escaped for a double-quoted HTML attribute. */
function quoted(value: string): string {
  return `"${value.replaceAll('&', '&amp;').replaceAll('"', '&quot;')}"`
}

/** A `style` object (`{borderRadius: '12px'}`) as CSS (`border-radius: 12px`). */
function css(value: {[key: string]: StaticValue}): string {
  return Object.entries(value)
    .map(([key, item]) => `${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}: ${String(item)}`)
    .join('; ')
}

/** An attribute's static value as HTML: ` name`, ` name="value"`, or nothing. */
function written(name: string, value: StaticValue): string {
  if (value === false || value === null) return ''
  if (value === true) return ` ${name}`
  if (typeof value === 'string' || typeof value === 'number') return ` ${name}=${quoted(String(value))}`
  const text = name === 'style' && !Array.isArray(value) ? css(value) : JSON.stringify(value)
  return ` ${name}=${quoted(text)}`
}

/** The HTML of `attributes` of the element `<tag>` (`scope`: the page's imported paths); what is left out is added to `lost`. */
export function attributesHtml(
  tag: string,
  attributes: ReadonlyArray<MdxJsxAttribute | MdxJsxExpressionAttribute>,
  lost: Lost,
  scope: Scope
): string {
  let html = ''
  for (const attribute of attributes) {
    if (attribute.type === 'mdxJsxExpressionAttribute') {
      const reading = readProgram(attribute.data?.estree as Program | undefined)
      if (reading.kind !== 'empty') lost.push(`the props \`{${attribute.value}}\` of \`<${tag}>\``)
      continue
    }
    if (contentAttributes.has(attribute.name)) continue
    const name = htmlNames[attribute.name] ?? attribute.name
    const {value} = attribute
    if (value === null || value === undefined) html += ` ${name}`
    else if (typeof value === 'string') html += ` ${name}=${quoted(value)}`
    else {
      const reading = readProgram(value.data?.estree as Program | undefined, scope)
      if (reading.kind === 'value') html += written(name, reading.value)
      else if (reading.kind === 'dynamic') lost.push(`the prop \`${attribute.name}\` of \`<${tag}>\``)
    }
  }
  return html
}

/**
 * The content an element's attributes give it, as HTML: a literal
 * `set:html` (Astro renders generated pages' examples so) or
 * `dangerouslySetInnerHTML={{__html}}` as written, `set:text` escaped;
 * undefined when none is given, and with `lost` told when one is not a literal.
 */
export function contentHtml(
  tag: string,
  attributes: ReadonlyArray<MdxJsxAttribute | MdxJsxExpressionAttribute>,
  lost: Lost
): string | undefined {
  for (const attribute of attributes) {
    if (attribute.type !== 'mdxJsxAttribute' || !contentAttributes.has(attribute.name)) continue
    const {value} = attribute
    const reading =
      typeof value === 'string'
        ? {kind: 'value' as const, value}
        : readProgram(value?.data?.estree as Program | undefined)
    const read = reading.kind === 'value' ? reading.value : undefined
    const html =
      attribute.name === 'dangerouslySetInnerHTML'
        ? read !== null && typeof read === 'object' && !Array.isArray(read)
          ? read.__html
          : undefined
        : read
    if (typeof html !== 'string') {
      lost.push(`the content \`${attribute.name}\` gives \`<${tag}>\``)
      continue
    }
    return attribute.name === 'set:text' ? html.replaceAll('&', '&amp;').replaceAll('<', '&lt;') : html
  }
  return undefined
}
