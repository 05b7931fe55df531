/**
 * The server's own file URLs in stored bodies. The embedded knowledge base
 * listens on a port chosen at each start, so a body that kept
 * `http://127.0.0.1:40487/services/kb?Id=…` would point at a dead port after
 * a restart (pull then fails to download its images). Bodies are stored with
 * one fixed origin for the server's own files and shown with the current one.
 */

/** What a stored body holds before the guid of one of the server's files. */
const storedFilePrefix = 'http://local-kb.invalid/services/kb?Id='

const loopbackFileUrl = /https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?\/services\/kb\?Id=([0-9a-fA-F-]{36})/g

/**
 * `body` as stored: URLs of the server's own files (`isOwn(guid)`), at a
 * loopback origin on any port or at `currentPrefix`, get the fixed origin.
 */
export function toStoredUrls(body: string, currentPrefix: string, isOwn: (guid: string) => boolean): string {
  // Before the server listens, its prefix has no origin yet: only loopback URLs are recognised then.
  const current = /^https?:\/\//.test(currentPrefix) && body.includes(currentPrefix)
  let text = current ? body.split(currentPrefix).join(storedFilePrefix) : body
  if (text.includes('/services/kb?Id='))
    text = text.replace(loopbackFileUrl, (url, guid: string) => (isOwn(guid) ? storedFilePrefix + guid : url))
  return text
}

/** `body` as shown: the fixed origin replaced by the server's current files URL. */
export function toShownUrls(body: string, currentPrefix: string): string {
  return body.includes(storedFilePrefix) ? body.split(storedFilePrefix).join(currentPrefix) : body
}
