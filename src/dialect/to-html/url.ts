/** URL filtering shared by the HTML outputs: the trust rule of `src/trust/url-scheme.ts`, in the outputs' words. */
import {liveUrl} from '../../trust/url-scheme.js'

/**
 * The URL when it is safe in an `href`/`src`, else undefined: relative URLs,
 * fragments and http(s)/mailto/tel/ftp pass; `data:` only for images
 * (`data:image/…` of a raster format: SVG may hold scripts); never a URL that
 * runs code, however its scheme is disguised (see `isScriptUrl`).
 */
export function safeUrl(url: string, kind: 'image' | 'other' = 'other'): string | undefined {
  return liveUrl(url, kind === 'image' ? 'image' : 'link')
}
