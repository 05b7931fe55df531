/**
 * Escaping for everything the preview writes into HTML: titles, messages,
 * paths and source lines all come from the user's files.
 */

const entities: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}

/** Escapes text for element content and double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => entities[character]!)
}

/** Encodes a repo-relative path for a URL, segment by segment (keeps the slashes). */
export function encodePath(relative: string): string {
  return relative.split('/').map(encodeURIComponent).join('/')
}

/** Decodes a URL path back to a repo-relative path; undefined when it is malformed. */
export function decodePath(encoded: string): string | undefined {
  try {
    return encoded.split('/').map(decodeURIComponent).join('/')
  } catch {
    return undefined
  }
}
