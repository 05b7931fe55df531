/**
 * Docusaurus' translations of sidebar labels:
 * `i18n/<locale>/docusaurus-plugin-content-docs/current.json` holds
 * `{"sidebar.<sidebar id>.category.<label>": {"message": "..."}}` (and
 * `.doc.<label>`, `.link.<label>`), which `docusaurus write-translations`
 * writes. Pure: the file's parsed value in, the sidebars' items given their
 * `translations` for that locale.
 */
import {maxOutlineDepth} from '../../trust/index.js'
import type {Sidebar} from './docusaurus-sidebars.js'
import type {SiteItem} from './site-items.js'

/** The translated messages of a `current.json` value, by key; none when it is not such a file. */
export function translationMessages(value: unknown): Map<string, string> {
  const messages = new Map<string, string>()
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return messages
  for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
    const message = typeof entry === 'object' && entry !== null ? (entry as {message?: unknown}).message : undefined
    if (typeof message === 'string') messages.set(key, message)
  }
  return messages
}

/** Gives the labels of `sidebars` their translations into `code` that `messages` holds. */
export function translateSidebars(
  sidebars: readonly Sidebar[],
  code: string,
  messages: ReadonlyMap<string, string>
): void {
  if (messages.size === 0) return
  for (const sidebar of sidebars) {
    const stack: Array<{items: SiteItem[]; depth: number}> = [{items: sidebar.items, depth: 0}]
    while (stack.length > 0) {
      const {items, depth} = stack.pop()!
      for (const item of items) {
        if (item.kind === 'auto' || item.label === undefined) continue
        const kind = item.kind === 'group' ? 'category' : 'doc'
        const message = messages.get(`sidebar.${sidebar.id}.${kind}.${item.label}`)
        if (message !== undefined) item.translations = {...item.translations, [code]: message}
        if (item.kind === 'group' && depth < maxOutlineDepth) stack.push({items: item.items, depth: depth + 1})
      }
    }
  }
}
