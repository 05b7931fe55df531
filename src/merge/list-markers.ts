/**
 * List markers of written blocks: list items joining an author's list take
 * its marker, and a list written next to another list takes a different
 * one, so neither merges into the other when read back.
 */

/** A list's marker at `offset` of the source: the bullet (`-`, `*`, `+`) or the ordered delimiter (`.`, `)`). */
export function listMarkerAt(source: string, offset: number): string | undefined {
  const marker = /^[ \t]*(?:([-*+])|\d{1,9}([.)]))/.exec(source.slice(offset, offset + 16))
  return marker ? (marker[1] ?? marker[2]) : undefined
}

/** Rewrites the markers of the list items starting a line of `text` (a written list) to `marker`. */
export function withListMarker(text: string, marker: string): string {
  if (marker === '.' || marker === ')') return text.replace(/^(\d{1,9})[.)]/gm, (_, digits: string) => digits + marker)
  return text.replace(/^[-*+](?=[ \t]|$)/gm, marker)
}

/** List items joining the author's list (`parent`, when it is one), written with its marker. */
export function matchListMarkers(text: string, source: string, parent: {type: string}, at: number): string {
  const marker = parent.type === 'list' ? listMarkerAt(source, at) : undefined
  return marker ? withListMarker(text, marker) : text
}

/** The marker of a written list (its first line's), when `text` starts with one. */
export function writtenListMarker(text: string): string | undefined {
  return listMarkerAt(text, 0)
}

/**
 * A written list's text with a marker none of its neighbouring lists uses
 * (of the same kind: bullets or ordered), unchanged when it already differs.
 */
export function apartFrom(text: string, neighbours: ReadonlyArray<string | undefined>): string {
  const own = writtenListMarker(text)
  if (!own || !neighbours.includes(own)) return text
  const kind = own === '.' || own === ')' ? ['.', ')'] : ['-', '*', '+']
  const free = kind.find((marker) => !neighbours.includes(marker))
  return free ? withListMarker(text, free) : text
}
