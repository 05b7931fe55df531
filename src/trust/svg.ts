/**
 * Every SVG kbsync uploads (a Mermaid rendering, a local `*.svg` image or
 * attachment, a `.drawio.svg`) is sanitised first: a file from the
 * repository is shown to every reader of the knowledge base, and an SVG
 * opened by itself (a link to it, draw.io's `<iframe>`) is a document that
 * runs scripts and fetches what it names. What goes:
 * - scripts, event handlers (`on*=`), `<foreignObject>` (HTML inside the
 *   image), SMIL animation (`<set attributeName="href">` rewrites links),
 *   comments and processing instructions (`<?xml-stylesheet?>`);
 * - every reference out of the image: `href`/`xlink:href` other than a
 *   local `#fragment` (or, on `<image>`, a `data:image/...`; an embedded SVG
 *   is itself sanitised), and `url(...)`, `image-set(...)`, `@import` in
 *   CSS to anything but a `#fragment` (`svg-css.ts`).
 * A `.drawio.svg` keeps its diagram (the `content` attribute of the root
 * `<svg>`), so draw.io still opens it. The filter is DOMPurify's SVG profile
 * over jsdom, not a hand-written one; both are loaded on the first SVG only
 * (`import()`), so a push without one never pays for them.
 */
import {open} from 'node:fs/promises'
import type {DOMPurify, UponSanitizeAttributeHookEvent} from 'dompurify'

/** SVGs larger than this are refused: sanitising costs memory and time in proportion (a diagram is kilobytes). */
export const maxSvgBytes = 16 * 1048576

/** How deep SVGs embedded as `data:image/svg+xml` in an `<image>` are sanitised; deeper ones are dropped. */
const maxNesting = 2

/** An SVG kbsync will not upload, with why (not well-formed XML, not an SVG, too large). */
export class SvgRefused extends Error {
  override name = 'SvgRefused'
}

/** The DOM and the filter, made once per process. */
interface Engine {
  parser: DOMParser
  serializer: XMLSerializer
  purify: DOMPurify
  /** The CSS rules (`svg-css.ts`, css-tree). */
  css: typeof import('./svg-css.js')
}

let engine: Promise<Engine> | undefined

/** Loads jsdom, DOMPurify and css-tree (once per process; see docs/diagrams.md for the cost). */
function loadEngine(): Promise<Engine> {
  return (engine ??= (async () => {
    const [{JSDOM}, {default: createDOMPurify}, css] = await Promise.all([
      import('jsdom'),
      import('dompurify'),
      import('./svg-css.js')
    ])
    const {window} = new JSDOM('')
    return {
      parser: new window.DOMParser(),
      serializer: new window.XMLSerializer(),
      purify: createDOMPurify(window),
      css
    }
  })())
}

/** How much of a file is looked at to tell an SVG named otherwise. */
const sniffBytes = 4096

/** Whether a file (by its name, else by its first bytes) is an SVG, and so must be sanitised before upload. */
export function isSvg(name: string, bytes: Uint8Array): boolean {
  if (/\.svg$/i.test(name)) return true
  // A file named otherwise may still be served or sniffed as SVG: look at what it starts with.
  const head = Buffer.from(bytes.subarray(0, sniffBytes))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
  return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i.test(head)
}

/**
 * What to upload in place of the file at `absolutePath` (`file`: its path
 * in the folder, for messages): its sanitised bytes when it is an SVG,
 * undefined when it is not (it goes from disk as it is). Throws
 * `SvgRefused` naming the file when it cannot be made safe. The single
 * call the upload makes.
 */
export async function svgUploadBytes(absolutePath: string, file: string): Promise<Buffer | undefined> {
  // A compressed SVG cannot be looked into here; a browser would still draw it.
  if (/\.svgz$/i.test(file)) throw refused(file, 'it is compressed (.svgz)')
  const handle = await open(absolutePath, 'r')
  let bytes: Buffer
  try {
    const head = Buffer.alloc(sniffBytes)
    const {bytesRead} = await handle.read(head, 0, sniffBytes, 0)
    if (!isSvg(file, head.subarray(0, bytesRead))) return undefined
    const {size} = await handle.stat()
    if (size > maxSvgBytes) throw refused(file, `it is ${size} bytes, over the ${maxSvgBytes} bytes kbsync sanitises`)
    bytes = await handle.readFile()
  } finally {
    await handle.close()
  }
  try {
    return Buffer.from(await sanitiseSvg(decode(bytes)), 'utf8')
  } catch (error) {
    if (error instanceof SvgRefused) throw refused(file, error.message)
    throw error
  }
}

/** The refusal of `file`, with what to do. */
function refused(file: string, why: string): SvgRefused {
  return new SvgRefused(
    `${file} is an SVG kbsync cannot upload: ${why}. Fix the file (open it in an SVG editor and save it again), or remove the reference to it`
  )
}

/**
 * `svg` (the text of an SVG file) sanitised: well-formed XML, its root an
 * `<svg>`, nothing that runs or fetches, in UTF-8. An XML declaration and a
 * final line end are kept (as a fixed `<?xml version="1.0"
 * encoding="UTF-8"?>`), so a clean file comes back from the platform as it
 * was written where it can.
 */
export async function sanitiseSvg(svg: string): Promise<string> {
  const text = svg.replace(/^\uFEFF/, '')
  const clean = sanitiseWith(await loadEngine(), text, 0)
  const declaration = text.startsWith('<?xml') ? '<?xml version="1.0" encoding="UTF-8"?>\n' : ''
  return declaration + clean + (/\n$/.test(text) ? '\n' : '')
}

/** The text of an SVG file: in the encoding its XML declaration names (UTF-8 when none, or one Node does not know). */
function decode(bytes: Buffer): string {
  const label = /^(?:\uFEFF)?<\?xml[^>]*?encoding\s*=\s*["']([\w.:-]+)["']/.exec(
    bytes.subarray(0, 200).toString('latin1')
  )?.[1]
  try {
    return new TextDecoder(label ?? 'utf-8').decode(bytes)
  } catch {
    return bytes.toString('utf8')
  }
}

/** Sanitises with a loaded engine; `depth` counts the SVGs this one is embedded in. */
function sanitiseWith(engine: Engine, svg: string, depth: number): string {
  const root = parseSvg(engine, svg)
  const nested: Element[] = []
  const purify = engine.purify
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'style') node.textContent = safely(() => engine.css.cleanStylesheet(node.textContent ?? ''))
  })
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    checkAttribute(engine.css, node, data, nested)
  })
  let clean: Element | null
  try {
    // The file was read as XML above; DOMPurify reads the well-formed result as HTML, the mode its allowlists are
    // written for (in its XHTML mode camel-case attributes such as viewBox are not recognised and dropped).
    const body = purify.sanitize(engine.serializer.serializeToString(root), {
      USE_PROFILES: {svg: true, svgFilters: true},
      ADD_TAGS: ['use'],
      ADD_ATTR: ['content', 'role'],
      FORBID_TAGS: ['foreignObject', 'animate', 'animateMotion', 'animateTransform', 'animateColor', 'set', 'discard'],
      RETURN_DOM: true
    })
    clean = (Array.from(body.childNodes).find((node) => node.nodeType === 1) as Element | undefined) ?? null
  } finally {
    purify.removeAllHooks()
  }
  if (clean === null || clean.localName !== 'svg') throw new SvgRefused('nothing of the SVG is left once sanitised')
  for (const image of nested) embedSanitised(engine, image, depth)
  return engine.serializer.serializeToString(clean)
}

/** The root `<svg>` of `svg`, parsed as XML (as a browser reads an `.svg`), its CDATA made text (DOMPurify drops CDATA). */
function parseSvg(engine: Engine, svg: string): Element {
  // The text is decoded already: a declaration naming another encoding must not make the parser decode it again.
  const document = engine.parser.parseFromString(svg.replace(/^<\?xml[^>]*\?>/, ''), 'image/svg+xml')
  const error = document.getElementsByTagName('parsererror')[0]
  if (error) throw new SvgRefused(`not well-formed XML (${(error.textContent ?? '').split('\n')[0]})`)
  const root = document.documentElement
  if (root.localName !== 'svg' || root.namespaceURI !== 'http://www.w3.org/2000/svg')
    throw new SvgRefused(`its root element is <${root.nodeName}>, not an SVG <svg>`)
  // Iterative: a deeply nested file must not exhaust the stack here.
  const pending: Node[] = [root]
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (node.nodeType === 4) node.parentNode!.replaceChild(document.createTextNode(node.textContent ?? ''), node)
    else pending.push(...Array.from(node.childNodes))
  }
  return root
}

/** What survives of an attribute: `href` only to a fragment or an image's data, CSS only without URLs, `content` only on the root. */
function checkAttribute(
  css: Engine['css'],
  node: Element,
  data: UponSanitizeAttributeHookEvent,
  nested: Element[]
): void {
  const name = data.attrName
  const value = data.attrValue
  if (name === 'href' || name.endsWith(':href')) {
    const target = value.trim()
    const image = node.localName === 'image' || node.localName === 'feImage'
    if (target.startsWith('#')) return
    if (image && /^data:image\/(png|jpe?g|gif|webp|avif|bmp);/i.test(target)) {
      data.forceKeepAttr = true
      return
    }
    if (image && /^data:image\/svg\+xml[;,]/i.test(target)) {
      nested.push(node)
      data.forceKeepAttr = true
      return
    }
    data.keepAttr = false
  } else if (name === 'style') {
    data.attrValue = safely(() => css.cleanDeclarations(value))
  } else if (name === 'content') {
    // draw.io's diagram, kept for the editor; a browser never reads it. Elsewhere it means nothing in SVG.
    if (node.parentElement?.localName !== 'body') data.keepAttr = false
  } else if (css.valueFetchesOutside(value)) {
    data.keepAttr = false
  }
}

/** Replaces the `data:image/svg+xml` of `image` by its sanitised form (dropped past `maxNesting` or when refused). */
function embedSanitised(engine: Engine, image: Element, depth: number): void {
  for (const name of ['href', 'xlink:href']) {
    const value = image.getAttribute(name)
    if (value === null) continue
    try {
      if (depth >= maxNesting) throw new SvgRefused('nested too deep')
      const inner = sanitiseWith(engine, decodeDataUrl(value), depth + 1)
      image.setAttribute(name, `data:image/svg+xml;base64,${Buffer.from(inner).toString('base64')}`)
    } catch {
      image.removeAttribute(name)
    }
  }
}

/** The text of a `data:` URL (base64 or percent-encoded). */
function decodeDataUrl(url: string): string {
  const comma = url.indexOf(',')
  const head = url.slice(0, comma)
  const payload = url.slice(comma + 1)
  return /;base64$/i.test(head) ? Buffer.from(payload, 'base64').toString('utf8') : decodeURIComponent(payload)
}

/** The CSS `clean` gives, or none when css-tree cannot read it at all. */
function safely(clean: () => string): string {
  try {
    return clean()
  } catch {
    return ''
  }
}
