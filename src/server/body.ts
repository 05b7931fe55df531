/**
 * Request bodies of the JSON routes: only as `application/json` (a page of
 * any site may send `text/plain` or untyped bodies cross-origin without
 * asking, JSON it may not), and never more than the limit, refused from the
 * Content-Length up front and counted while streaming when there is none.
 */
import type {IncomingMessage} from 'node:http'
import {invalidRequest, KbServerError} from './errors.js'
import type {BodyLimits} from './options.js'

export type {BodyLimits} from './options.js'

/** The default limits. */
export const defaultBodyLimits: BodyLimits = {jsonBytes: 16 * 1048576, fileBytes: 256 * 1048576}

/** Whether the request carries a body at all (a length above 0, or chunked). */
export function hasBody(message: IncomingMessage): boolean {
  return Number(message.headers['content-length'] ?? 0) > 0 || message.headers['transfer-encoding'] !== undefined
}

/** The media type of the request, lower case, without parameters. */
export function mediaType(message: IncomingMessage): string {
  return (message.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
}

/** A 413 for a body past `limit` bytes; `code` is the platform's when it has one. */
export function tooLarge(limit: number, what = 'The request body', code = 'request_too_large'): KbServerError {
  return new KbServerError(413, code, `${what} is larger than the server's limit of ${limit} bytes.`)
}

/** Throws a 413 when the declared Content-Length is past `limit`, before a byte is read. */
export function checkDeclaredLength(message: IncomingMessage, limit: number, error: () => KbServerError): void {
  const declared = Number(message.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) throw error()
}

/**
 * Reads a JSON object body: 415 unless sent as `application/json`, 413
 * past `limit` bytes, 400 for anything but an object. No body is `{}`.
 */
export async function readJson<T>(message: IncomingMessage, limit: number): Promise<T> {
  if (!hasBody(message)) return {} as T
  if (mediaType(message) !== 'application/json') {
    throw new KbServerError(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.')
  }
  checkDeclaredLength(message, limit, () => tooLarge(limit))
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of message) {
    size += (chunk as Buffer).length
    if (size > limit) throw tooLarge(limit)
    chunks.push(chunk as Buffer)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  let value: unknown
  try {
    value = text === '' ? {} : JSON.parse(text)
  } catch {
    throw invalidRequest('The body is not valid JSON.')
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw invalidRequest('The body must be a JSON object.')
  return value as T
}
