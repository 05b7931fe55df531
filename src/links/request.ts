/**
 * One HTTP exchange of the link checker: a HEAD or GET of one URL through
 * undici, with a time-out over the whole exchange. No redirect is followed
 * here (`probe.ts` follows them hop by hop) and a body is read only when the
 * caller needs the page (an anchor to find), bounded in size.
 */
import {request, type Dispatcher} from 'undici'
import {flatHeaders} from '../api/answer-error.js'

/** An answer: its status, headers (lower-case names, one value each) and, when asked for and HTML, the page. */
export interface Exchange {
  status: number
  headers: Record<string, string | undefined>
  /** The page's text: only for a GET with `readPage` whose answer is HTML. */
  page?: string
}

/** How one exchange is sent. */
export interface ExchangeOptions {
  dispatcher: Dispatcher
  timeoutMs: number
  userAgent: string
  /** Read the body of an HTML answer (anchors are looked for in it). */
  readPage?: boolean
}

/** A request that got no answer: refused, reset, unresolvable, or too slow. */
export class ExchangeError extends Error {
  override name = 'ExchangeError'
  constructor(
    message: string,
    /** The time-out struck (rather than the connection failing). */
    readonly timedOut: boolean,
    /** Another attempt may fare better (false: the answers themselves are wrong, such as endless redirects). */
    readonly retryable = true
  ) {
    super(message)
  }
}

/** Pages larger than this are not searched for anchors (their start is, which is where ids usually are not missing). */
const maxPageBytes = 5 * 1024 * 1024

/** Sends `method` to `url` and returns the answer; throws an `ExchangeError` when there is none. */
export async function exchange(url: string, method: 'HEAD' | 'GET', options: ExchangeOptions): Promise<Exchange> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), options.timeoutMs)
  try {
    const response = await request(url, {
      method,
      headers: {'user-agent': options.userAgent, accept: 'text/html,application/xhtml+xml,*/*;q=0.8'},
      signal: controller.signal,
      dispatcher: options.dispatcher
    })
    const headers = flatHeaders(response.headers)
    const html = /html/i.test(headers['content-type'] ?? '')
    if (method === 'GET' && options.readPage && html && response.statusCode < 300) {
      return {status: response.statusCode, headers, page: await readLimited(response.body)}
    }
    // The connection goes back to the pool only once the body is consumed; a large one is cut off.
    await response.body.dump({limit: 64 * 1024}).catch(() => undefined)
    return {status: response.statusCode, headers}
  } catch (error) {
    if (controller.signal.aborted) throw new ExchangeError(`timed out after ${formatSeconds(options.timeoutMs)}`, true)
    const cause = error as {code?: string; message?: string; cause?: {code?: string; message?: string}}
    const code = cause.cause?.code ?? cause.code
    throw new ExchangeError(
      code ? `${code}: ${cause.cause?.message ?? cause.message ?? 'no answer'}` : (cause.message ?? 'no answer'),
      false
    )
  } finally {
    clearTimeout(timer)
  }
}

/** `10 s`, `0.2 s`: a duration for messages. */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(ms < 1000 ? 1 : 0))} s`
}

/** The first `maxPageBytes` of a body as text. */
async function readLimited(body: AsyncIterable<Uint8Array> & {destroy?: () => void}): Promise<string> {
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of body) {
    chunks.push(chunk)
    size += chunk.length
    if (size >= maxPageBytes) {
      body.destroy?.()
      break
    }
  }
  return Buffer.concat(chunks).toString('utf8')
}
