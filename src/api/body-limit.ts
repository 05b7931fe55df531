/**
 * Bodies over the size limit of the server or of a proxy on the way. Such a
 * server answers 413 and closes the connection without reading the body; a
 * client still sending it often meets the reset first (`EPIPE`,
 * `ECONNRESET`) and never sees the answer, so a retry ladder meant for
 * dropped connections sent the same body again and again, and halved the
 * pool each time. Here a 413 read once teaches the limit for the run
 * (bodies at least that large fail without being sent), and a large body
 * whose connection broke twice while it was sent is given up: each fails
 * with a message that names its size and what to do.
 */
import type {CallSpec, CallTally} from './call-spec.js'
import {ApiError, NetworkError} from './errors.js'

/** A body at least this large whose connection breaks while it is sent is suspected of being over a limit. */
export const largeBodyBytes = 256 * 1024

/** Connection errors of a write the other side stopped reading. */
const brokenWriteCodes = new Set(['EPIPE', 'ECONNRESET'])

/** The size of a request body in bytes: a string or bytes by their length, a stream by its declared length. */
export function bodyBytes(body: unknown, headers: Record<string, string>): number | undefined {
  if (typeof body === 'string') return Buffer.byteLength(body)
  if (body instanceof Uint8Array) return body.byteLength
  const declared = Number(headers['content-length'])
  return Number.isFinite(declared) && declared > 0 ? declared : undefined
}

/** Which limit a call's body meets: the JSON calls share one; other bodies (uploads) have their endpoint's. */
function limitKind(spec: Pick<CallSpec<unknown>, 'json' | 'endpoint'>): string {
  return spec.json !== undefined ? 'json' : spec.endpoint
}

/** Whether a dropped connection with `code` of a call sending `bytes` may be a body refused for its size. */
function isBrokenLargeWrite(code: string | undefined, bytes: number | undefined): boolean {
  return code !== undefined && brokenWriteCodes.has(code) && bytes !== undefined && bytes >= largeBodyBytes
}

/**
 * What one client learned of body limits in this run (per kind of call, the
 * smallest body answered 413), and what it makes of a large body's broken write.
 */
export class BodyLimits {
  private readonly refused = new Map<string, number>()

  /** A body of `bytes` of `spec`'s kind was answered 413. */
  learn(spec: CallSpec<unknown>, bytes: number | undefined): void {
    if (bytes === undefined) return
    const kind = limitKind(spec)
    this.refused.set(kind, Math.min(bytes, this.refused.get(kind) ?? Infinity))
  }

  /** Throws, before anything is sent, when a body of `bytes` is at least one refused for `spec`'s kind. */
  check(spec: CallSpec<unknown>, path: string, bytes: number | undefined): void {
    const refused = this.refused.get(limitKind(spec))
    if (refused !== undefined && bytes !== undefined && bytes >= refused)
      throw overLearnedLimit(spec, path, bytes, refused)
  }

  /**
   * The error to end a call with after `error`, when it is the broken write
   * of a large body that is most likely over a limit: one at least as large
   * as a refused one, or one that broke twice (`tally` counts).
   */
  afterBrokenWrite(spec: CallSpec<unknown>, error: ApiError, tally: CallTally): ApiError | undefined {
    const code = error.cause?.code
    const bytes = tally.bodyBytes
    if (!(error instanceof NetworkError) || !isBrokenLargeWrite(code, bytes)) return undefined
    try {
      this.check(spec, error.path, bytes)
    } catch (refused) {
      return refused as ApiError
    }
    return ++tally.brokenWrites >= 2 ? brokenTwice(spec, error.path, bytes!, code!) : undefined
  }
}

/** `bytes` for people: `1.1 MB`, `340 KB`. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
  return `${Math.max(1, Math.round(bytes / 1024))} KB`
}

/** What to do about a body over a limit, for a call with a JSON body (a page) or another (a file). */
function remedy(json: boolean): string {
  return json
    ? 'make the page smaller: split it into several pages, or move its large parts (embedded images, long tables or listings) into files of their own'
    : 'the file is larger than the server or a proxy on the way accepts'
}

/** The message's tail for a 413 answer to a body of `bytes`. */
export function refusedTail(bytes: number | undefined, json: boolean): string {
  return `${bytes === undefined ? '' : ` (the body sent is ${sizeText(bytes)})`}: ${remedy(json)}`
}

/** A call not sent: its body is at least as large as one the server refused with 413 earlier in this run. */
export function overLearnedLimit(spec: CallSpec<unknown>, path: string, bytes: number, refused: number): ApiError {
  return new ApiError(
    `${spec.method} ${path} not sent: its body of ${sizeText(bytes)} is at least as large as one of ${sizeText(refused)} the server refused earlier in this run (413, over its size limit): ${remedy(spec.json !== undefined)}`,
    {status: 413, errorCode: 'body_too_large', method: spec.method, path, retryable: false}
  )
}

/** A large body whose connection broke twice while it was sent: most likely a limit that closes without reading. */
export function brokenTwice(spec: CallSpec<unknown>, path: string, bytes: number, code: string): ApiError {
  return new ApiError(
    `${spec.method} ${path} failed: the connection was cut twice while its body of ${sizeText(bytes)} was sent (${code}), so the server or a proxy on the way most likely refuses bodies this large (a 413 sent before closing the connection, unread): ${remedy(spec.json !== undefined)}`,
    {errorCode: 'body_too_large', method: spec.method, path, retryable: false}
  )
}
