/**
 * The page: shell (navigation, status) around one article or topic, its
 * title, its problems and its rendered body. `renderArticlePage` gives a
 * whole, self-contained document (the stylesheet inline); `renderFragment`
 * gives the parts live reload swaps in.
 */
import {defaultClobberPrefix, slug} from '../dialect/to-html/index.js'
import {renderDiagnostics, type PageDiagnostic} from './diagnostics.js'
import {escapeHtml} from './escape.js'
import {mermaidLoaderTag} from './mermaid.js'
import {renderNav, type NavItem} from './nav.js'
import {stylesheet} from './stylesheet.js'

/** What one page shows. */
export interface ArticlePageInput {
  /** The article's (or topic's) title. */
  title: string
  /** The body as HTML (from `kbToHtml`): trusted, inserted as is. */
  html: string
  /** Problems of the item, shown above the body. */
  warnings?: PageDiagnostic[]
  /** The navigation. */
  nav: NavItem[]
  /** A line above the title: the file the page comes from. */
  path?: string
  /** The file's text: errors show the lines around them. */
  source?: string
  /** Entries listed under the body (a topic's articles and subtopics). */
  children?: NavItem[]
  /** Title of the browser tab; defaults to `title`. */
  documentTitle?: string
  /** URL of a script to load (the preview's live reload client). */
  scriptHref?: string
  /** How far the preview got reading the whole folder, while it still reads it (problems of other pages may come). */
  progress?: {done: number; total: number}
}

/** The parts of a page that live reload replaces. */
export interface PageFragment {
  documentTitle: string
  nav: string
  main: string
}

/**
 * The title's ` id` attribute: the slug its heading had before it became
 * the title (the opening heading is not repeated in the body), so a link to
 * it (`#ecosystem` on the Ecosystem page) lands as it does on docs sites;
 * none when the body has a heading of that id already.
 */
function titleId(page: ArticlePageInput): string {
  const name = slug(page.title)
  if (name === '') return ''
  const id = escapeHtml(defaultClobberPrefix + name)
  return page.html.includes(` id="${id}"`) ? '' : ` id="${id}"`
}

/** What the page says while the folder is still being read (the live reload script updates it as reading goes on). */
export function progressText(progress: {done: number; total: number}): string {
  const count = (n: number) => n.toLocaleString('en-US')
  return (
    `Checking links and problems: ${count(progress.done)}/${count(progress.total)} documents read. ` +
    `This page is complete; problems found in other files appear when the check is done.`
  )
}

/** The inside of `<main>`: path, title, problems, body, children. */
function renderMain(page: ArticlePageInput): string {
  const children = page.children?.length
    ? `<section class="kb-children"><h2>In this topic</h2><ul>${page.children
        .map(
          (child) =>
            `<li><a href="${escapeHtml(child.href)}" data-kind="${child.kind}">${escapeHtml(child.title)}</a></li>`
        )
        .join('')}</ul></section>`
    : ''
  return (
    `<article class="kb-page">` +
    (page.path !== undefined ? `<div class="kb-page-path">${escapeHtml(page.path)}</div>` : '') +
    `<h1 class="kb-page-title"${titleId(page)}>${escapeHtml(page.title)}</h1>` +
    (page.progress
      ? `<p class="kb-progress" id="kb-progress" role="status">${escapeHtml(progressText(page.progress))}</p>`
      : '') +
    renderDiagnostics(page.warnings ?? [], page.source) +
    `<div class="kb-article" id="kb-article">${page.html}</div>` +
    children +
    `</article>`
  )
}

/** The parts of a page live reload swaps in (navigation, main, tab title). */
export function renderFragment(page: ArticlePageInput): PageFragment {
  return {
    documentTitle: page.documentTitle ?? page.title,
    nav: renderNav(page.nav, undefined, page.scriptHref !== undefined),
    main: renderMain(page)
  }
}

/**
 * The drawer's switch (a checkbox, so the drawer opens without the script,
 * as on the local server's browse page), the bar with its button shown on
 * narrow screens, and the backdrop that closes it. Outside the navigation,
 * so live reload keeps the drawer as it was.
 */
const drawerToggle =
  `<input type="checkbox" id="kb-drawer" class="kb-drawer-toggle" aria-label="Show the contents" aria-controls="kb-nav">` +
  `<header class="kb-topbar"><label for="kb-drawer" class="kb-drawer-button" id="kb-drawer-button">\u2630 Contents</label></header>` +
  `<label for="kb-drawer" class="kb-backdrop" aria-hidden="true"></label>`

/**
 * A whole HTML document showing one article (or topic) the way the
 * platform's article view does, with the navigation beside it. Every text
 * field is escaped; `html` is inserted as given.
 */
export function renderArticlePage(page: ArticlePageInput): string {
  const fragment = renderFragment(page)
  const script = page.scriptHref
    ? `<script src="${escapeHtml(page.scriptHref)}" defer></script>${mermaidLoaderTag}`
    : ''
  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(fragment.documentTitle)}</title><style>${stylesheet}</style>${script}</head>` +
    `<body>${drawerToggle}<div class="kb-layout">${fragment.nav}<main class="kb-main" id="kb-main">${fragment.main}</main></div></body></html>\n`
  )
}
