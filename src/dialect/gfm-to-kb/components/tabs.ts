/**
 * Tabs: Docusaurus `<Tabs>` / `<TabItem value label default>` (labels may
 * come from the `values` prop of `<Tabs>`), Starlight `<Tabs>` /
 * `<TabItem label icon>`, Mintlify `<Tabs>` / `<Tab title>`, and the code
 * groups that show one block at a time (Mintlify `<CodeGroup>`). The page
 * cannot switch tabs, so each tab becomes a labelled section: its label as
 * a bold line, then its content, in order.
 */
import type {Handle} from 'hast-util-to-mdast'
import {attribute} from '../html/attributes.js'
import {componentChildren, unwrapped} from './shared.js'

const tabNames: ReadonlySet<string> = new Set(['TabItem', 'Tab'])

/** The labels a Docusaurus `values` prop gives (`[{label, value}]`, as JSON), by value. */
function labelsOf(values: string | undefined): Map<string, string> {
  const labels = new Map<string, string>()
  if (values === undefined || !values.startsWith('[')) return labels
  let parsed: unknown
  try {
    parsed = JSON.parse(values)
  } catch {
    return labels
  }
  if (!Array.isArray(parsed)) return labels
  for (const item of parsed as unknown[]) {
    const {label, value} = (item ?? {}) as {label?: unknown; value?: unknown}
    if (typeof value === 'string' && typeof label === 'string') labels.set(value, label)
  }
  return labels
}

/** A tab set: its tabs in order (each given the label its `values` prop names, when it has none). */
export const tabsHandler: Handle = (state, element) => {
  const labels = labelsOf(attribute(element, 'values'))
  if (labels.size > 0) {
    for (const tab of componentChildren(element, tabNames)) {
      const value = attribute(tab, 'value')
      if (attribute(tab, 'label') === undefined && value !== undefined && labels.has(value))
        tab.properties.label = labels.get(value)!
    }
  }
  return unwrapped(state, element)
}

/** One tab: its label (or title, or value) as a bold line, then its content. */
export const tabHandler: Handle = (state, element) =>
  unwrapped(state, element, attribute(element, 'label') ?? attribute(element, 'title') ?? attribute(element, 'value'))
