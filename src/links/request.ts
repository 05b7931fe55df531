/**
 * One HTTP exchange of the link checker: a HEAD or GET of one URL through
 * undici, ended by the caller's signal (the attempt's time-out or the run's
 * budget). No redirect is followed here (`probe.ts` follows them hop by hop)
 * and a body is read only when the caller needs the page (an anchor to
 * find), bounded in size. A connection the address policy refuses (see
 * `src/trust/guarded-connect.ts`) fails as `address`, never as broken.
 */
import {request, type Dispatcher} from 'undici'
import {flatHeaders} from '../api/answer-error.js'
import {addressRefusalOf, type AddressRange} from '../trust/index.js'

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
  userAgent: string
  /** Aborts the exchange: the attempt's time is up, or (reason `BudgetSpent`) the run's. */
  signal: AbortSignal
  /** The attempt's time-out, for the message when `signal` strikes. */
  timeoutMs: number
  /** Read the body of an HTML answer (anchors are looked for in it). */
  readPage?: boolean
}

/**
 * Why a request got no answer: the connection failed (`network`), the
 * attempt's time-out struck (`timeout`), the run's time budget was spent
 * (`budget`), the host is an address the policy refuses (`address`), the
 * host timed out so often it is not asked again (`unresponsive`), or the
 * answers themselves are wrong, such as endless redirects (`answer`).
 */
export type ExchangeFailure = 'network' | 'timeout' | 'budget' | 'address' | 'answer' | 'unresponsive'

/** A request that got no answer: refused, reset, unresolvable, too slow, or not sent. */
export class ExchangeError extends Error {
  override name = 'ExchangeError'
  constructor(
    message: string,
    readonly kind: ExchangeFailure,
    /** Another attempt may fare better: only a failed connection (a time-out costs a whole time-out again). */
    readonly retryable = kind === 'network'
  ) {
    super(message)
  }
}

/** The reason a run's signal is aborted with once its time budget is spent. */
export class BudgetSpent extends Error {
  override name = 'BudgetSpent'
}

/** Pages larger than this are not searched for anchors (their start is, which is where ids usually are not missing). */
const maxPageBytes = 5 * 1024 * 1024

/** Sends `method` to `url` and returns the answer; throws an `ExchangeError` when there is none. */
export async function exchange(url: string, method: 'HEAD' | 'GET', options: ExchangeOptions): Promise<Exchange> {
  try {
    const response = await request(url, {
      method,
      headers: {'user-agent': options.userAgent, accept: 'text/html,application/xhtml+xml,*/*;q=0.8'},
      signal: options.signal,
      dispatcher: options.dispatcher
    })
    const headers = flatHeaders(response.headers)
    const html = /html/i.test(headers['content-type'] ?? '')
    if (method === 'GET' && options.readPage && html && response.statusCode < 300) {
      return {status: response.statusCode, headers, page: await readLimited(response.body)}
    }
    // The connection goes back to the pool only once the body is consumed; a large one is cut off.
    await response.body.dump({limit: 64 * 1024, signal: options.signal}).catch(() => undefined)
    return {status: response.statusCode, headers}
  } catch (error) {
    throw failureOf(error, options)
  }
}

/** The `ExchangeError` that says why `error` ended an exchange. */
function failureOf(error: unknown, options: ExchangeOptions): ExchangeError {
  if (options.signal.aborted) {
    return options.signal.reason instanceof BudgetSpent
      ? new ExchangeError('the time budget was spent', 'budget')
      : new ExchangeError(`timed out after ${formatSeconds(options.timeoutMs)}`, 'timeout')
  }
  const refused = addressRefusalOf(error)
  if (refused) return new ExchangeError(privateAddressReason(refused.host, refused.address, refused.range), 'address')
  const cause = error as {code?: string; message?: string; cause?: {code?: string; message?: string}}
  const code = cause.cause?.code ?? cause.code
  return new ExchangeError(
    code ? `${code}: ${cause.cause?.message ?? cause.message ?? 'no answer'}` : (cause.message ?? 'no answer'),
    'network'
  )
}

/** `private address (127.0.0.1, loopback)`, `private address (rebind.example → 10.0.0.5, private)`: why a URL was not requested. */
export function privateAddressReason(host: string, address: string, range: AddressRange): string {
  const bare = host.replace(/^\[(.*)\]$/, '$1')
  return `private address (${bare === address ? address : `${bare} → ${address}`}, ${range})`
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
