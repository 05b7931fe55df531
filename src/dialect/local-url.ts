/**
 * Which URLs of a body point at local files, and which of those are draw.io
 * files: one answer for push (`gfm-to-kb/drawio-links.ts`, the folder's
 * references) and pull (`kb-to-gfm/drawio.ts`), so the two cannot disagree.
 */

const drawioFile = /\.drawio(?:\.svg|\.png)?$/i

/** Whether `url` points at something local (not a scheme, not `//host`, not a fragment). */
export function isLocalUrl(url: string): boolean {
  return url !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith('//') && !url.startsWith('#')
}

/** `url` without its `?query` and `#anchor`: the file's path. */
export function urlPath(url: string): string {
  return url.replace(/[?#].*$/, '')
}

/** Whether `url` (a path, maybe with `?query` or `#anchor`) names a draw.io file. */
export function isDrawioPath(url: string): boolean {
  return drawioFile.test(urlPath(url))
}

/** Whether `url` names a local draw.io file (`.drawio`, `.drawio.svg`, `.drawio.png`). */
export function isLocalDrawio(url: string): boolean {
  return isLocalUrl(url) && isDrawioPath(url)
}
