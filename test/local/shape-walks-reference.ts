/**
 * The recursions `shape-walks.test.ts` checks the iterative walks against:
 * the code of `src/local/validate.ts`, `src/local/references.ts` and
 * `src/preview/nav.ts` before issue 32, kept as the reference of their order.
 */
import path from 'node:path'
import type {Root} from 'mdast'
import {nodeDiagramKind} from '../../src/diagrams/kinds.js'
import {isLocalUrl} from '../../src/dialect/local-url.js'
import {plural} from '../../src/local/diagnostic-groups.js'
import type {Diagnostic} from '../../src/local/diagnostic.js'
import {documentStem} from '../../src/local/file-names.js'
import type {LocalNode, LocalTopic} from '../../src/local/types.js'
import {escapeHtml} from '../../src/preview/escape.js'
import type {NavItem} from '../../src/preview/nav.js'

function titleKey(title: string): string {
  return title.trim().normalize('NFC').toLowerCase()
}

/** Pushes duplicate-title and duplicate-id errors of the tree under `root`. */
function validateTree(root: LocalTopic, diagnostics: Diagnostic[]): void {
  const ids = new Map<string, LocalNode>()
  const visit = (topic: LocalTopic): void => {
    const titles = new Map<string, LocalNode[]>()
    for (const child of topic.children) {
      const key = titleKey(child.title)
      titles.set(key, [...(titles.get(key) ?? []), child])
    }
    for (const child of topic.children) {
      const same = titles.get(titleKey(child.title))!
      const first = same[0]!
      // The platform allows equal titles; when every one is pinned by kb_id, matching never needs the title.
      if (first !== child && !same.every((node) => node.kbId)) {
        diagnostics.push({
          severity: 'error',
          file: fileOf(child),
          line: titleLineOf(child),
          message: `Title "${child.title}" is already used by \`${fileOf(first)}\` in the same topic`,
          hint: 'Give one of them another title (front matter `title`, first heading or file name), or pin each of them with a `kb_id`',
          rule: 'duplicate-title'
        })
      }
      if (child.kbId) {
        const other = ids.get(child.kbId)
        if (other) {
          diagnostics.push({
            severity: 'error',
            file: fileOf(child),
            line: 1,
            message: `kb_id ${child.kbId} is already pinned by \`${fileOf(other)}\``,
            hint: 'A copied file keeps its kb_id: remove it from the copy',
            rule: 'duplicate-kb-id'
          })
        } else {
          ids.set(child.kbId, child)
        }
      }
      if (child.kind === 'topic') visit(child)
    }
  }
  visit(root)
}

/**
 * Gives children of one topic that share a title (and are not all pinned by
 * `kb_id`) distinct titles: the first keeps it, each other one gets its name
 * added, `Code of Conduct (conduct)`, else its path below the topic. One
 * warning per shared title. A title still shared afterwards is left for
 * `validateTree` to refuse.
 */
function disambiguateTitles(root: LocalTopic, diagnostics: Diagnostic[]): void {
  const visit = (topic: LocalTopic): void => {
    const groups = new Map<string, LocalNode[]>()
    for (const child of topic.children) {
      const key = titleKey(child.title)
      groups.set(key, [...(groups.get(key) ?? []), child])
    }
    const taken = new Set(groups.keys())
    for (const group of groups.values()) {
      if (group.length < 2 || group.every((node) => node.kbId)) continue
      const [first, ...others] = group
      const renamed: string[] = []
      for (const node of others) {
        // A name the first one has too (`Café.md` in NFC and in NFD: one file on macOS) tells nothing apart.
        const names = [nameOf(node), pathOf(node)].filter((name) => name !== nameOf(first!) && name !== pathOf(first!))
        const title = names
          .map((name) => `${node.title} (${name})`)
          .find((candidate) => !taken.has(titleKey(candidate)))
        if (title === undefined) continue
        taken.add(titleKey(title))
        renamed.push(`\`${fileOf(node)}\` as "${title}"`)
        node.title = title
      }
      if (renamed.length === 0) continue
      diagnostics.push({
        severity: 'warning',
        file: fileOf(others[0]!),
        line: titleLineOf(others[0]!),
        message: `Title "${first!.title}" is also the title of \`${fileOf(first!)}\` in the same topic; published ${renamed.join(', ')} to tell them apart`,
        hint: 'Give each its own title (front matter `title`, first heading or file name) to choose the titles yourself',
        rule: 'title-disambiguated'
      })
    }
    for (const child of topic.children) if (child.kind === 'topic') visit(child)
  }
  visit(root)
}

/** The name that tells a node apart: its file's or folder's name. */
function nameOf(node: LocalNode): string {
  const folderName =
    node.kind === 'topic' && (node.file === undefined || path.posix.basename(node.file) === '_index.md')
  return folderName ? path.posix.basename(node.path).normalize('NFC') : documentStem(node.file ?? node.path)
}

/** The node's path without extension, for names that repeat (`a/intro`, `b/intro`, placed side by side by a navigation). */
function pathOf(node: LocalNode): string {
  return (node.file ?? node.path).replace(/\.mdx?$/i, '').normalize('NFC')
}

function fileOf(node: LocalNode): string {
  return node.file ?? node.navigation?.file ?? node.path
}

function titleLineOf(node: LocalNode): number {
  if (node.kind === 'article' && node.titleLine !== undefined) return node.titleLine
  return node.file === undefined && node.navigation ? node.navigation.line : 1
}

type RefNode = {type: string; url?: string; value?: string; lang?: string | null; children?: unknown[]}

/** What the old preorder walk found, as `collectLocalRefs` names it (a diagram by its source, else the URL). */
function collectLocalRefs(tree: Root): string[] {
  const nodes: RefNode[] = []
  const walk = (parent: {children?: unknown[]}): void => {
    for (const child of parent.children as RefNode[]) {
      if (child.url !== undefined && isLocalUrl(child.url)) {
        if (['link', 'image', 'attachment', 'drawio'].includes(child.type)) nodes.push(child)
      } else if ((child.type === 'code' || child.type === 'inlineCode') && nodeDiagramKind(child) !== undefined) {
        nodes.push(child)
      }
      if (Array.isArray(child.children)) walk(child)
    }
  }
  walk(tree)
  return nodes.map((node) => (nodeDiagramKind(node) !== undefined ? `diagram:${node.value}` : node.url!))
}

const filterBox = `<input type="search" class="kb-nav-filter" id="kb-nav-filter" placeholder="Filter by title" aria-label="Filter the contents by title" autocomplete="off" spellcheck="false">`

/**
 * The navigation as a `<nav>` element; with `filter`, the filter box above
 * the tree (only for pages that load the script that runs it).
 */
function renderNav(items: NavItem[], heading = 'Contents', filter = false): string {
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

export const reference = {validateTree, disambiguateTitles, collectLocalRefs, renderNav}
