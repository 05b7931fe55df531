/**
 * The pure half of the preview: page rendering from plain data, with no
 * file system, watcher or folder scan behind it. The local server's browse
 * page imports this, not `index.ts`, so it pulls in nothing of the folder side.
 */
export {renderArticlePage, renderFragment, type ArticlePageInput, type PageFragment} from './page.js'
export {renderNav, type NavItem} from './nav.js'
export {renderDiagnostics, type PageDiagnostic} from './diagnostics.js'
export {navFromStructure} from './structure-nav.js'
export {stylesheet} from './stylesheet.js'
export {palette, shellPalette, codePalette, hexToRgb, type TokenColors, type ShellColors} from './palette.js'
