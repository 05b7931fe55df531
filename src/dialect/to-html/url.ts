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
  const probe = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '')
  if (!anyProtocol.test(probe)) return url
  if (safeProtocol.test(probe)) return url
  if (kind === 'image' && /^data:image\/(?:png|jpe?g|gif|webp|bmp|avif);/i.test(probe)) return url
  return undefined
}
