/**
 * The navigation tree of the page shell: topics and articles as nested
 * lists. Plain data in (`NavItem`), escaped HTML out; the preview builds the
 * items from the folder, the local server from its stored items.
 */
import {escapeHtml} from './escape.js'

/** One entry of the navigation. */
export interface NavItem {
  kind: 'topic' | 'article'
  title: string
  /** Where the entry leads (already a URL). */
  href: string
  /** The page being shown. */
  current?: boolean
  /** Number of errors in the item's file (shown as a mark). */
  errors?: number
  children?: NavItem[]
}

/** The navigation as a `<nav>` element. */
export function renderNav(items: NavItem[], heading = 'Contents'): string {
  return `<nav class="kb-nav" id="kb-nav" aria-label="Contents"><div class="kb-nav-header">${escapeHtml(heading)}</div>${renderList(items)}</nav>`
}

function renderList(items: NavItem[]): string {
  if (items.length === 0) return ''
  return `<ul>${items.map(renderItem).join('')}</ul>`
}

function renderItem(item: NavItem): string {
  const current = item.current ? ' aria-current="page"' : ''
  // The error mark is drawn by the stylesheet, so the link's text stays the title.
  const errors = item.errors ? ` data-errors="${item.errors}" title="${item.errors} error${item.errors === 1 ? '' : 's'}"` : ''
  const link = `<a href="${escapeHtml(item.href)}" data-kind="${item.kind}"${current}${errors}>${escapeHtml(item.title)}</a>`
  return `<li class="kb-nav-${item.kind}">${link}${renderList(item.children ?? [])}</li>`
}
