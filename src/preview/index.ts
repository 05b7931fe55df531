/**
 * The preview: HTML pages that show the dialect the way the platform's
 * article view does, and the live preview server of a folder.
 */
export {startPreview, type PreviewOptions, type PreviewServer} from './server.js'
export {renderArticlePage, renderFragment, type ArticlePageInput, type PageFragment} from './page.js'
export {renderNav, type NavItem} from './nav.js'
export {renderDiagnostics, type PageDiagnostic} from './diagnostics.js'
export {stylesheet} from './stylesheet.js'
export {palette, hexToRgb, type TokenColors} from './palette.js'
export {openBrowser, openCommand} from './open.js'
export {navFromStructure} from './structure-nav.js'
