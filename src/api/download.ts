/**
 * File download: into a temporary file created exclusively beside the
 * destination and renamed into place, so a reader never sees half a file and
 * nothing planted at the temporary name is followed. Redirects are followed
 * here, hop by hop, each hop sent with the token only where
 * `download-access.ts` allows it.
 */
import {randomBytes} from 'node:crypto'
import {open, rename, rm, type FileHandle} from 'node:fs/promises'
import path from 'node:path'
import {downloadAccess, shownUrl, tokenScopes} from './download-access.js'
import {downloadMismatch, type ExpectedFile} from './download-check.js'
import {ApiError} from './errors.js'
import {redact} from './redact.js'
import type {Transport} from './transport.js'

/** Redirects one download follows at most (a files service needs one or two). */
const maxRedirects = 5

/** One answer of a download request: the file, or where it moved. */
type Hop = {done: true; bytes: number} | {done: false; location: string}

/**
 * Downloads `url` (absolute, or relative to the API URL) to `destPath`. The
 * token goes only to the API's file routes and the files service; any other
 * URL, first or redirected to, is refused or fetched without the token as
 * the client's `foreignDownloads` says. The answer must be the file
 * `expected` describes (`download-check.ts`): else it is fetched again, and
 * when it stays wrong the download fails naming the file. No temporary file
 * is left on failure, and nothing is written at `destPath`.
 */
export async function downloadFile(
  transport: Transport,
  url: string,
  destPath: string,
  expected: ExpectedFile = {}
): Promise<{bytes: number}> {
  // The addresses may change with the login answer: settle them before deciding where the token may go.
  await transport.session.ready()
  const first = parse(transport, url, transport.session.apiUrl + '/')
  // Refused before the folder is touched.
  const access = decide(transport, first, false)
  const temp = await createTemp(destPath)
  try {
    const bytes = await follow(transport, first, access, {handle: temp.handle, expected})
    await temp.handle.close()
    await rename(temp.path, destPath)
    return {bytes}
  } catch (error) {
    await temp.handle.close().catch(() => undefined)
    await rm(temp.path, {force: true})
    throw error
  }
}

/** Requests `url`, and where it redirects, until a file comes; resolves with its size. */
async function follow(
  transport: Transport,
  url: URL,
  access: {send: 'token' | 'anonymous'},
  into: Into
): Promise<number> {
  let current = url
  let leftScopes = false
  for (let hop = 0; ; hop++) {
    const answer = await fetchHop(transport, current, access.send === 'token', into)
    if (answer.done) return answer.bytes
    if (hop === maxRedirects) {
      throw new ApiError(`Download of ${shownUrl(current)} redirected more than ${maxRedirects} times`, {
        method: 'GET',
        path: current.pathname,
        errorCode: 'too_many_redirects'
      })
    }
    // A chain that has left the token's services never earns it back: the next hop is named by a host we do not trust.
    leftScopes ||= access.send !== 'token'
    current = parse(transport, answer.location, current.href)
    access = decide(transport, current, leftScopes)
  }
}

/** A URL of a download, resolved against `base`; an unparsable one is refused. */
function parse(transport: Transport, url: string, base: string): URL {
  try {
    return new URL(url, base)
  } catch {
    throw refusal(transport, JSON.stringify(url.slice(0, 200)), 'it is not a URL', '')
  }
}

/** How to send a request to `url`; throws the refusal. */
function decide(transport: Transport, url: URL, leftScopes: boolean): {send: 'token' | 'anonymous'} {
  const access = downloadAccess(
    url,
    tokenScopes(transport.session.apiUrl, transport.session.filesUrl),
    transport.options.foreignDownloads,
    leftScopes
  )
  if (access.send === 'refuse') throw refusal(transport, shownUrl(url), access.reason, url.pathname)
  return access
}

function refusal(transport: Transport, shown: string, reason: string, urlPath: string): ApiError {
  return new ApiError(redact(`Not downloading ${shown}: ${reason}`, transport.secrets()), {
    method: 'GET',
    path: urlPath,
    errorCode: 'download_refused'
  })
}

/**
 * The temporary file beside `destPath`, created with `wx` (`O_CREAT|O_EXCL`):
 * it fails on anything already at that name, a planted symlink included,
 * instead of writing through it to wherever it points. Its name carries the
 * process id, so the next run can tell one a killed run left
 * (`local/stale-temp.ts`) from one a live run is writing.
 */
async function createTemp(destPath: string): Promise<{path: string; handle: FileHandle}> {
  const name = `.${path.basename(destPath)}.${process.pid}.${randomBytes(6).toString('hex')}.part`
  const temp = path.join(path.dirname(destPath), name)
  return {path: temp, handle: await open(temp, 'wx')}
}

/** Where a download's bytes go, and what they must be. */
interface Into {
  handle: FileHandle
  expected: ExpectedFile
  /** Whether an attempt wrote to the file already (the next one empties it first; a fresh file needs no truncation). */
  written?: boolean
}

/** Bytes of the body's start kept to sniff what it is. */
const headBytes = 512

/**
 * One request of a download (retried by the transport); a 2xx answer is
 * written over whatever an earlier attempt left, and one that is not the
 * file expected is a retryable fault.
 */
function fetchHop(transport: Transport, url: URL, auth: boolean, into: Into): Promise<Hop> {
  const {handle, expected} = into
  return transport.call<Hop>({
    method: 'GET',
    base: 'url',
    path: url.href,
    endpoint: 'GET (download)',
    auth,
    timeoutMs: transport.options.uploadTimeoutMs,
    onFailure: 'retry',
    redirect: (location) => ({done: false, location}),
    read: async (body, headers) => {
      if (into.written) await saving(url, handle.truncate(0))
      into.written = true
      let bytes = 0
      const head: Buffer[] = []
      for await (const chunk of body as AsyncIterable<Buffer>) {
        if (bytes < headBytes) head.push(chunk.subarray(0, headBytes - bytes))
        await saving(url, handle.write(chunk, 0, chunk.length, bytes))
        bytes += chunk.length
      }
      const wrong = downloadMismatch(expected, {bytes, headers, head: Buffer.concat(head)})
      if (wrong !== undefined) {
        const what = expected.name !== undefined ? `${JSON.stringify(expected.name)} (${shownUrl(url)})` : shownUrl(url)
        throw new ApiError(redact(`Download of ${what} is not the file: ${wrong}`, transport.secrets()), {
          method: 'GET',
          path: url.pathname,
          errorCode: 'download_mismatch',
          retryable: true
        })
      }
      return {done: true, bytes}
    }
  })
}

/**
 * A write of the download's bytes to disk: its failure (a full disk, a
 * read-only file system) is the machine's, not the network's, so it fails
 * the call at once instead of being retried as a dropped connection; the
 * system error rides along as the cause, for the caller to name the file.
 */
async function saving<T>(url: URL, write: Promise<T>): Promise<T> {
  try {
    return await write
  } catch (error) {
    const {code, message} = error as NodeJS.ErrnoException
    throw new ApiError(`GET ${shownUrl(url)}: could not save the download: ${message}`, {
      method: 'GET',
      path: url.pathname,
      errorCode: code ?? 'write_failed',
      retryable: false,
      cause: {name: 'Error', message, ...(code !== undefined ? {code} : {})}
    })
  }
}
