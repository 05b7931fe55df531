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
    `<ul class="kb-nav-tree">${renderItems(items)}</ul>` +
    `<p class="kb-nav-empty" id="kb-nav-empty" hidden>No title matches.</p></nav>`
  )
}

function renderLink(item: NavItem): string {
  const current = item.current ? ' aria-current="page"' : ''
  // The error mark is drawn by the stylesheet, so the link's text stays the title.
  const errors = item.errors ? ` data-errors="${item.errors}" title="${plural(item.errors, 'error')}"` : ''
  return `<a href="${escapeHtml(item.href)}" data-kind="${item.kind}"${current}${errors}>${escapeHtml(item.title)}</a>`
}

/**
 * The list items of `items` and all they hold, in document order. Iterative,
 * as a tree of data (a stored knowledge base, a folder) may nest topics
 * thousands deep: an element's closing tags wait on the stack below its
 * children.
 */
function renderItems(items: NavItem[]): string {
  const holders = holdersOfCurrent(items)
  const out: string[] = []
  const stack: Array<{item: NavItem; depth: number} | string> = items.map((item) => ({item, depth: 0})).reverse()
  while (stack.length > 0) {
    const next = stack.pop()!
    if (typeof next === 'string') {
      out.push(next)
      continue
    }
    const {item, depth} = next
    const children = item.children ?? []
    if (children.length === 0) {
      out.push(`<li class="kb-nav-${item.kind} kb-nav-leaf">${renderLink(item)}</li>`)
      continue
    }
    // The top level and the way down to the current page are open; every other topic folds.
    const open = depth === 0 || holders.has(item) ? ' open' : ''
    out.push(`<li class="kb-nav-${item.kind}"><details${open}><summary>${renderLink(item)}</summary><ul>`)
    stack.push('</ul></details></li>')
    for (let at = children.length - 1; at >= 0; at--) stack.push({item: children[at]!, depth: depth + 1})
  }
  return out.join('')
}

/** The items that are the current page or hold it: one walk down with the path kept, not a search below every topic. */
function holdersOfCurrent(items: NavItem[]): Set<NavItem> {
  const holders = new Set<NavItem>()
  const path: NavItem[] = []
  const stack = items.map((item) => ({item, depth: 0})).reverse()
  while (stack.length > 0) {
    const {item, depth} = stack.pop()!
    path.length = depth
    path.push(item)
    if (item.current === true) for (const holder of path) holders.add(holder)
    const children = item.children ?? []
    for (let at = children.length - 1; at >= 0; at--) stack.push({item: children[at]!, depth: depth + 1})
  }
  return holders
}
