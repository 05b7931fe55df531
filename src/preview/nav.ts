/**
 * The navigation of the page shell: the topic tree as nested lists, each
 * topic a `<details>` that folds (the current page's ancestors open, the
 * current page marked), above it a filter box the page's script reads
 * (`client.ts`; without the script the tree still folds and links). Plain
 * data in (`NavItem`), escaped HTML out; the preview builds the items from
 * the folder, the local server from its stored items.
 */
import {plural} from '../local/diagnostic-groups.js'
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

const filterBox = `<input type="search" class="kb-nav-filter" id="kb-nav-filter" placeholder="Filter by title" aria-label="Filter the contents by title" autocomplete="off" spellcheck="false">`

/**
 * The navigation as a `<nav>` element; with `filter`, the filter box above
 * the tree (only for pages that load the script that runs it).
 */
export function renderNav(items: NavItem[], heading = 'Contents', filter = false): string {
  return (
    `<nav class="kb-nav" id="kb-nav" aria-label="Contents"><div class="kb-nav-header">${escapeHtml(heading)}</div>` +
    (filter ? filterBox : '') +
    `<ul class="kb-nav-tree">${items.map((item) => renderItem(item, 0)).join('')}</ul>` +
    `<p class="kb-nav-empty" id="kb-nav-empty" hidden>No title matches.</p></nav>`
  )
}

/** Whether `item` is the current page or holds it. */
function holdsCurrent(item: NavItem): boolean {
  return item.current === true || (item.children ?? []).some(holdsCurrent)
}

function renderLink(item: NavItem): string {
  const current = item.current ? ' aria-current="page"' : ''
  // The error mark is drawn by the stylesheet, so the link's text stays the title.
  const errors = item.errors ? ` data-errors="${item.errors}" title="${plural(item.errors, 'error')}"` : ''
  return `<a href="${escapeHtml(item.href)}" data-kind="${item.kind}"${current}${errors}>${escapeHtml(item.title)}</a>`
}

function renderItem(item: NavItem, depth: number): string {
  const children = item.children ?? []
  if (children.length === 0) return `<li class="kb-nav-${item.kind} kb-nav-leaf">${renderLink(item)}</li>`
  // The top level and the way down to the current page are open; every other topic folds.
  const open = depth === 0 || holdsCurrent(item) ? ' open' : ''
  const list = children.map((child) => renderItem(child, depth + 1)).join('')
  return `<li class="kb-nav-${item.kind}"><details${open}><summary>${renderLink(item)}</summary><ul>${list}</ul></details></li>`
}
