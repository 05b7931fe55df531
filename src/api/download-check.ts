/**
 * Whether a download's answer is the file the platform listed (pure). A 200
 * is no proof: a corporate proxy, a captive portal or a gateway in
 * maintenance answers 200 with its own HTML page, and a connection cut
 * mid-way through a chunked answer ends as cleanly as a complete one. So
 * the bytes received are checked against the answer's own `Content-Length`,
 * against the size the item's record lists for the file, and the answer's
 * media type (declared, or sniffed from the first bytes) against what the
 * file's name says it is: a web page where an image is expected is a page
 * of something else. A mismatch is a transport fault (retried); one that
 * stays is an error naming the file, and nothing is saved.
 */

/** What the platform said of a file before it was fetched. */
export interface ExpectedFile {
  /** The file's name in the item's record (its extension says what it is). */
  name?: string
  /** Its size in bytes in the item's record. */
  size?: number
}

/** What arrived. */
export interface ReceivedFile {
  bytes: number
  /** The answer's headers, lower-case names. */
  headers: Record<string, string | undefined>
  /** The first bytes of the body (up to 512), for sniffing. */
  head: Uint8Array
}

/** Extensions of files that are web pages or plain text: an HTML answer may be them. */
const textual = /\.(html?|xhtml|xml|svg|txt|md|markdown|csv|tsv|json|ya?ml|log|ini|conf|css|js|mjs|ts|rtf)$/i

/** Extensions of raster images and other binary formats: a text answer is never them. */
const binary =
  /\.(png|jpe?g|gif|webp|bmp|ico|tiff?|avif|heic|heif|pdf|zip|gz|tgz|7z|rar|docx?|xlsx?|pptx?|odt|ods|odp|mp[34]|m4a|wav|ogg|webm|mov|avi|mkv|exe|bin|psd)$/i

/** Media types of an error or gateway page (never the bytes of a listed file with a binary extension). */
const pageTypes = /^(text\/|application\/(json|problem\+json|xhtml\+xml)$)/

/** The first bytes of an HTML page (after optional BOM and white space). */
const htmlStart = /^(\uFEFF)?\s*<(!doctype\s+html|html[\s>]|head[\s>]|body[\s>]|title[\s>])/i

/**
 * Why `received` is not the file `expected` describes, in words, or
 * undefined when nothing says it is not.
 */
export function downloadMismatch(expected: ExpectedFile, received: ReceivedFile): string | undefined {
  const declared = received.headers['content-length']
  // A compressed answer's Content-Length counts the compressed bytes; undici does not decode, so it still counts what we read.
  if (declared !== undefined && /^\d+$/.test(declared.trim()) && Number(declared) !== received.bytes)
    return `the answer announced ${declared} bytes and ${received.bytes} arrived`
  if (typeof expected.size === 'number' && Number.isSafeInteger(expected.size) && expected.size >= 0) {
    if (expected.size !== received.bytes)
      return `the item's record lists ${expected.size} bytes and ${received.bytes} arrived`
  }
  const name = expected.name ?? ''
  if (textual.test(name)) return undefined
  const type = mediaType(received.headers['content-type'])
  if (type !== undefined && pageTypes.test(type) && (binary.test(name) || type === 'text/html'))
    return `the answer is ${type}, not the file`
  if (pageInPlaceOf(name, received.head)) return 'the answer is an HTML page, not the file'
  return undefined
}

/**
 * Whether `head` (the first bytes of a file) is an HTML page where the file
 * named `name` is no web page or text: what a proxy's answer saved in place
 * of an image looks like, on the wire or on disk.
 */
export function pageInPlaceOf(name: string, head: Uint8Array): boolean {
  return !textual.test(name) && looksLikeHtml(head)
}

/** The media type of a `Content-Type` header, lower case, without parameters. */
function mediaType(header: string | undefined): string | undefined {
  const type = header?.split(';')[0]?.trim().toLowerCase()
  return type ? type : undefined
}

/** Whether the first bytes of a body are an HTML page's. */
function looksLikeHtml(head: Uint8Array): boolean {
  return htmlStart.test(Buffer.from(head.subarray(0, 512)).toString('latin1'))
}
