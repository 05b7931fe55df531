/**
 * The preview: HTML pages that show the dialect the way the platform's
 * article view does, and the live preview server of a folder.
 */
export * from './view.js'
export {startPreview, type PreviewOptions, type PreviewServer} from './server.js'
export type {PreviewScanOptions} from './model.js'
export {openBrowser, openCommand} from './open.js'
