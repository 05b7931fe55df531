/** URL filtering shared by the HTML outputs. */

const safeProtocol = /^(?:https?|mailto|tel|ftp):/i
const anyProtocol = /^[a-z][a-z\d+.-]*:/i

/**
 * The URL when it is safe in an `href`/`src`, else undefined: relative URLs,
 * fragments and http(s)/mailto/tel/ftp pass; `data:` only for images
 * (`data:image/…` without SVG, which may hold scripts). Control characters and
 * whitespace browsers ignore in a scheme are removed before the check.
 */
export function safeUrl(url: string, kind: 'image' | 'other' = 'other'): string | undefined {
  const probe = schemeProbe(url)
  if (!anyProtocol.test(probe)) return url
  if (safeProtocol.test(probe)) return url
  if (kind === 'image' && /^data:image\/(?:png|jpe?g|gif|webp|bmp|avif);/i.test(probe)) return url
  return undefined
}

/**
 * Whether `url` runs code when followed: `javascript:`, `vbscript:`, and
 * `data:` unless `data` is allowed (an image's). Read as browsers read a
 * scheme, control characters and whitespace ignored, as in `safeUrl`.
 */
export function runsScript(url: string, options: {data?: boolean} = {}): boolean {
  return (options.data ? /^(?:javascript|vbscript):/i : /^(?:javascript|vbscript|data):/i).test(schemeProbe(url))
}

/** `url` as browsers read its scheme: without the control characters and whitespace they ignore. */
function schemeProbe(url: string): string {
  // eslint-disable-next-line no-control-regex -- the control characters browsers drop from a URL's scheme are the point
  return url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '')
}
