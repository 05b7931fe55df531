/**
 * Which link and image addresses may stay live: the one rule every way a URL
 * reaches the dialect (a GFM link, an autolink, a reference definition, an
 * `<a href>` or `<img src>` converted from HTML, a body already in the
 * dialect) and every HTML output (the preview, `kbsync convert --to html`)
 * applies. A document from the repository (or the platform) is data: its
 * links must not run code in the reader's browser when followed.
 *
 * A URL runs code when its scheme is `javascript:` or `vbscript:`, or
 * `data:` (a document the browser renders: `data:text/html,<script>…`); an
 * image may be a `data:image/…` of a raster format (SVG excluded: it may hold
 * scripts). The scheme is read as a browser reads it, so the tricks that hide
 * it from a plain prefix test do not: letter case (`JaVaScRiPt:`), control
 * characters and whitespace browsers drop (`java\tscript:`, ` javascript:`,
 * `java\nscript:`), character references a browser decodes in an attribute
 * (`&#106;avascript:`, `javascript&colon;`), and percent-escapes a server or
 * a later decoding may undo (`java%0Ascript:`). Reading more into a URL than
 * a browser would only ever refuses more, never lets a script through.
 */

/** The named character references that spell the characters a scheme trick needs. */
const namedReferences: Record<string, string> = {
  colon: ':',
  tab: '\t',
  newline: '\n',
  nbsp: ' ',
  sol: '/',
  amp: '&'
}

/** `url` with its character references decoded, as a browser decodes an attribute (numeric ones, and the few named ones a scheme trick uses). */
function decodeReferences(url: string): string {
  return url.replace(
    /&(?:#(\d{1,7})|#x([\da-f]{1,6})|([a-z]{2,8}));?/gi,
    (whole, dec?: string, hex?: string, name?: string) => {
      if (name !== undefined) return namedReferences[name.toLowerCase()] ?? whole
      const code = dec !== undefined ? Number(dec) : parseInt(hex!, 16)
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ''
    }
  )
}

/** `url` with its `%XX` escapes decoded, byte by byte (a malformed sequence is left as is). */
function decodePercents(url: string): string {
  return url.replace(/(?:%[\da-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run)
    } catch {
      return run
    }
  })
}

/** `url` without the characters browsers ignore in a scheme: C0 controls, space, DEL, C1 controls, and invisible format characters. */
function withoutIgnored(url: string): string {
  // eslint-disable-next-line no-control-regex -- the control characters browsers drop from a URL's scheme are the point
  return url.replace(/[\u0000-\u0020\u007f-\u00a0\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/g, '')
}

/** `url` as a browser reads its scheme: references decoded (twice: `&amp;#106;`), ignored characters dropped, and with `percents` its `%XX` escapes decoded too. */
function probe(url: string, percents: boolean): string {
  let text = url
  for (let round = 0; round < 2; round++)
    text = withoutIgnored(decodeReferences(percents ? decodePercents(text) : text))
  return text
}

const schemeOf = (text: string) => /^([a-z][a-z\d+.-]*):/i.exec(text)?.[1]?.toLowerCase()

/**
 * The scheme of `url` as a browser would read it, lower case (`javascript`),
 * or undefined for a relative URL or a fragment: character references
 * decoded and the characters browsers ignore dropped first.
 */
export function urlScheme(url: string): string | undefined {
  return schemeOf(probe(url, false))
}

/** Schemes whose URL is a program the browser runs. */
const scriptSchemes = new Set(['javascript', 'vbscript', 'livescript'])

/** The raster image formats a `data:` image may have (SVG may hold scripts, so it is not one). */
const dataImage = /^data:image\/(?:png|jpe?g|gif|webp|bmp|avif|x-icon|vnd\.microsoft\.icon)[;,]/i

/**
 * Whether `url` runs code when followed or loaded: `javascript:`,
 * `vbscript:`, or `data:` except, for an image (`kind: 'image'`), a
 * `data:image/…` of a raster format. How the scheme is read: see the module.
 */
export function isScriptUrl(url: string, kind: 'link' | 'image' = 'link'): boolean {
  // Read as a browser reads it, and once more with its percent-escapes undone (a later decoding must not arm it).
  const schemes = [urlScheme(url), schemeOf(probe(url, true))]
  if (schemes.some((scheme) => scheme !== undefined && scriptSchemes.has(scheme))) return true
  if (!schemes.includes('data')) return false
  return kind !== 'image' || !dataImage.test(withoutIgnored(url))
}

/** The schemes an HTML output keeps live besides relative URLs and fragments (everything else loses its `href`/`src`). */
const webSchemes = new Set(['http', 'https', 'mailto', 'tel', 'ftp'])

/**
 * `url` when an HTML output may make it live (an `href`, a `src`), else
 * undefined: relative URLs, fragments and http(s)/mailto/tel/ftp pass, a
 * `data:` raster image for `kind: 'image'`; nothing `isScriptUrl` refuses.
 */
export function liveUrl(url: string, kind: 'link' | 'image' = 'link'): string | undefined {
  if (isScriptUrl(url, kind)) return undefined
  const scheme = urlScheme(url)
  if (scheme === undefined || webSchemes.has(scheme)) return url
  return scheme === 'data' ? url : undefined
}
