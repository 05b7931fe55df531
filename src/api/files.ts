/**
 * File upload: multipart, streamed from disk, the file re-opened for every
 * attempt, `md5_hash` checked against the bytes sent. (Downloads: download.ts.)
 */
import {createHash, randomBytes} from 'node:crypto'
import {createReadStream} from 'node:fs'
import {readFile, stat} from 'node:fs/promises'
import path from 'node:path'
import {readApiJson} from './answer-error.js'
import {ApiError} from './errors.js'
import type {Transport} from './transport.js'
import type {UploadResult} from './types.js'

/** Quotes a file name for a `Content-Disposition` parameter (RFC 7578, as browsers do: percent-encode quotes and line breaks, nothing else). */
function quoteName(name: string): string {
  // As browsers do (the HTML standard's form encoding): only these three are escaped; a `%` goes as it is, servers do not decode it.
  return name.replace(/["\r\n]/g, (c) => encodeURIComponent(c))
}

/** Files up to this size are read whole and sent in one write; larger ones are streamed. */
const wholeUploadBytes = 4 * 1048576

/**
 * Uploads one file as part `file` of a `multipart/form-data` request: the
 * file at `filePath`, or `options.bytes` when given (what the caller made of
 * it: a sanitised SVG), named after `filePath` unless `options.name`.
 */
export async function uploadFile(
  transport: Transport,
  filePath: string,
  options: {name?: string; bytes?: Uint8Array} = {}
): Promise<UploadResult> {
  const given = options.bytes
  const info = given ? {size: given.length} : await stat(filePath)
  if (!given && !('isFile' in info && info.isFile())) throw new TypeError(`Not a file: ${filePath}`)
  const name = options.name ?? path.basename(filePath)
  let sent: ReturnType<typeof createHash> | undefined
  return transport.call<UploadResult>({
    method: 'POST',
    base: 'upload',
    path: '/files/upload',
    endpoint: 'POST /files/upload',
    timeoutMs: transport.options.uploadTimeoutMs,
    // A re-sent upload at worst leaves an unreferenced file, which the platform removes.
    onFailure: 'retry',
    body: () => {
      const boundary = `----kbsync${randomBytes(12).toString('hex')}`
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoteName(name)}"\r\nContent-Type: application/octet-stream\r\n\r\n`
      )
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
      const hash = createHash('md5')
      sent = hash
      const headers = {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + info.size + tail.length)
      }
      if (given || info.size <= wholeUploadBytes) {
        // Most images are small: one read and one write cost less than a stream's round trips through the thread pool.
        return (given ? Promise.resolve(given) : readFile(filePath)).then((bytes) => {
          if (bytes.length !== info.size)
            throw new ApiError(`${name} changed size while being uploaded`, {
              method: 'POST',
              path: '/files/upload',
              errorCode: 'file_changed',
              retryable: true
            })
          hash.update(bytes)
          return {body: Buffer.concat([head, bytes, tail]), headers}
        })
      }
      async function* parts(): AsyncGenerator<Uint8Array> {
        yield head
        for await (const chunk of createReadStream(filePath)) {
          hash.update(chunk as Buffer)
          yield chunk as Buffer
        }
        yield tail
      }
      return {body: parts(), headers}
    },
    read: async (body, headers) =>
      uploaded(
        await readApiJson(body, {method: 'POST', path: '/files/upload', headers}, transport.secrets()),
        name,
        sent?.digest('hex')
      )
  })
}

/** The answer of an upload, checked: a guid, and the md5 of the bytes sent (`local`); each failure is retried. */
function uploaded(json: unknown, name: string, local: string | undefined): UploadResult {
  const answer = json as Partial<UploadResult> | null
  if (!answer || typeof answer.guid !== 'string' || typeof answer.md5_hash !== 'string') {
    // Not the platform's answer (a gateway's JSON): sending the file again at worst leaves an unreferenced upload.
    throw new ApiError('POST /files/upload answered without guid and md5_hash', {
      method: 'POST',
      path: '/files/upload',
      errorCode: 'invalid_answer',
      retryable: true
    })
  }
  if (local !== answer.md5_hash.toLowerCase()) {
    throw new ApiError(`Upload of ${name} arrived damaged: md5 ${answer.md5_hash} on the server, ${local} locally`, {
      method: 'POST',
      path: '/files/upload',
      errorCode: 'md5_mismatch',
      retryable: true
    })
  }
  return answer as UploadResult
}
