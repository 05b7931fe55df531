/**
 * The preview: HTML pages that show the dialect the way the platform's
 * article view does, and the live preview server of a folder.
 */
import {loadOptional} from '../optional.js'
import type {PreviewOptions, PreviewServer} from './server.js'

export * from './view.js'
export type {PreviewOptions, PreviewServer, RefreshInfo} from './server.js'
export type {PreviewScanOptions} from './model.js'
export {openBrowser, openCommand} from './open.js'

/**
 * Starts the live preview server of a folder. The server (with shiki, which
 * highlights its code, and the folder watcher) is loaded on this first
 * call, not when kbsync is imported; without shiki installed it rejects with
 * a `MissingPackageError` naming it.
 */
export async function startPreview(options: PreviewOptions): Promise<PreviewServer> {
  const server = await loadOptional('shiki', () => import('./server.js'))
  return server.startPreview(options)
}
