/**
 * `POST /files/upload`: the multipart body is parsed as it arrives (busboy)
 * and the first part that carries a file streamed into the file store,
 * hashed on the way; nothing holds the whole file in memory. The spec names
 * the part `file`, but the platform takes any name: the official TypeScript
 * client names it after the file. Past the limit the upload is
 * dropped and answered 413 `too_large_file` (the platform's code).
 */
import type {BusboyFileStream} from '@fastify/busboy'
import {createHash, randomUUID} from 'node:crypto'
import type {IncomingMessage} from 'node:http'
import {pipeline} from 'node:stream/promises'
import {checkDeclaredLength, mediaType, tooLarge} from './body.js'
import {KbServerError} from './errors.js'
import type {FileStore} from './file-store.js'
import type {StoredFile} from './store.js'

const unreadable = () => new KbServerError(400, 'no_file_in_request', 'The multipart body could not be read.')

/** Receives the first file part of an upload into `files`; resolves to the stored file's record. */
export async function receiveUpload(message: IncomingMessage, files: FileStore, limit: number): Promise<StoredFile> {
  if (mediaType(message) !== 'multipart/form-data') {
    throw new KbServerError(400, 'no_file_in_request', 'Send the file as multipart/form-data, in a part named file.')
  }
  const oversize = () => tooLarge(limit, 'The file', 'too_large_file')
  checkDeclaredLength(message, limit, oversize)
  // Loaded with the first upload: a server that never takes one (and whoever imports kbsync) does not pay for it.
  const {Busboy} = await import('@fastify/busboy')
  let parser: ReturnType<typeof Busboy>
  try {
    // Fields and other parts are not used: small limits keep them from filling memory instead.
    parser = Busboy({
      headers: message.headers as {'content-type': string},
      limits: {fileSize: limit, files: 4, fields: 16, fieldSize: 65536, parts: 24}
    })
  } catch {
    throw unreadable()
  }
  return new Promise<StoredFile>((resolve, reject) => {
    let received: Promise<StoredFile> | undefined
    let receiving: BusboyFileStream | undefined
    // Stops reading the request at once (the answer then closes the connection) and drops a half-written file.
    const fail = (error: KbServerError) => {
      message.unpipe(parser)
      receiving?.destroy()
      reject(error)
    }
    parser.on('file', (field, stream, filename) => {
      if (received) return void stream.resume()
      receiving = stream
      // A part without a filename is named after the file by its field, as the official TypeScript client does.
      received = store(stream, filename || field || 'file', files, oversize)
      received.catch(fail)
    })
    parser.on('finish', () => {
      if (!received)
        return fail(
          new KbServerError(
            400,
            'no_file_in_request',
            'The multipart body has no file part (one with a filename or of type application/octet-stream).'
          )
        )
      received.then(resolve, () => undefined)
    })
    parser.on('error', () => fail(unreadable()))
    message.on('aborted', () => fail(unreadable()))
    message.pipe(parser)
  })
}

async function store(
  stream: BusboyFileStream,
  name: string,
  files: FileStore,
  oversize: () => KbServerError
): Promise<StoredFile> {
  const guid = randomUUID()
  const incoming = files.receive(guid)
  const hash = createHash('md5')
  let size = 0
  let truncated = false
  stream.on('limit', () => {
    truncated = true
    stream.destroy()
  })
  try {
    await pipeline(
      stream,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          hash.update(chunk)
          size += chunk.length
          yield chunk
        }
      },
      incoming.stream
    )
  } catch {
    await incoming.abort()
    throw truncated ? oversize() : unreadable()
  }
  if (size === 0) {
    await incoming.abort()
    throw new KbServerError(400, 'empty_file', 'The file is empty.')
  }
  await incoming.commit()
  return {guid, name, size, md5: hash.digest('hex')}
}
