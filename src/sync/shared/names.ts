/**
 * File and folder names from titles: valid on Linux, macOS and Windows, and
 * distinct among siblings on a case-insensitive, normalisation-insensitive
 * file system. Pure functions: the same titles and ids always give the same
 * names, and a name already in use for an item is never taken from it.
 */

/** Longest name part (before ` (n)` and the extension), in UTF-8 bytes: 255 minus room for ` (999)` and `.remote.md`. */
export const maxStemBytes = 200

/** Names the folder contract reserves inside every folder (compared case-insensitively). */
export const reservedNames = ['_index.md', '_permissions.yml', '_assets', 'node_modules'] as const

// Windows refuses these as a name's first part, whatever follows the first dot.
const windowsDevice = /^(?:con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³])$/i

/**
 * A safe name stem for `title`: forbidden characters (`/ \ : * ? " < > |`)
 * and control characters replaced, whitespace collapsed, NFC, no leading dot,
 * no trailing dot or space, no Windows device name, no `.remote` ending (the
 * scanner skips `*.remote.md`), at most `maxStemBytes` UTF-8 bytes cut at a
 * character boundary. Letters of every script are kept.
 */
export function safeStem(title: string): string {
  let stem = title
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/[/\\|]/g, '-')
    .replace(/:/g, ' -')
    .replace(/"/g, "'")
    .replace(/[<>*?]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
  stem = truncateBytes(stem, maxStemBytes)
  stem = stem.replace(/[. ]+$/, '')
  if (stem.startsWith('.')) stem = '_' + stem
  if (stem === '') stem = 'untitled'
  if (windowsDevice.test(stem.split('.')[0]!.trim())) stem = stem.replace(/^([^.]*)/, '$1_')
  if (/\.remote$/i.test(stem)) stem += '_'
  return stem
}

// One segmenter for every cut: making one costs more than the cut itself (ICU loads its rules each time).
const graphemes = new Intl.Segmenter(undefined, {granularity: 'grapheme'})

/**
 * Cuts `text` to at most `limit` UTF-8 bytes without splitting a character
 * (grapheme cluster). The bytes are counted code point by code point up to
 * the limit; only the cluster at the cut is asked of the segmenter, so a
 * cut costs the limit, not the length of `text`.
 */
export function truncateBytes(text: string, limit: number): string {
  if (text.length * 3 <= limit || Buffer.byteLength(text) <= limit) return text
  let bytes = 0
  let end = 0
  while (end < text.length) {
    const point = text.codePointAt(end)!
    const size = point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4
    if (bytes + size > limit) break
    bytes += size
    end += point >= 0x10000 ? 2 : 1
  }
  // The cluster the cut falls in starts before it: it is left out whole.
  const cluster = graphemes.segment(text).containing(end)
  return text.slice(0, cluster === undefined ? end : Math.min(end, cluster.index))
}

/** The key two names collide on: case-insensitive and normalisation-insensitive (macOS, Windows). */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase()
}

/** One child of a folder to be named. */
export interface NameRequest {
  id: string
  kind: 'article' | 'topic'
  title: string
  /** The name it already has on disk (from the state or a `kb_id` front matter), kept when still free. */
  current?: string
  /** The name's ending (default: `.md` for articles, none for topics); the ` (n)` suffix goes before it. */
  extension?: string
}

/**
 * Names the children of one folder: an item that already has a name keeps
 * it; the others get `safeStem(title)` (`.md` for articles), and where names
 * collide (case-insensitively, or with a reserved name, or with `taken`) the
 * lowest id keeps the plain name and the next ones get ` (2)`, ` (3)`...
 * Returns the name by id.
 */
export function assignNames(requests: NameRequest[], taken: Iterable<string> = []): Map<string, string> {
  const used = new Set<string>([...reservedNames, ...taken].map(nameKey))
  const names = new Map<string, string>()
  const ordered = [...requests].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  for (const request of ordered) {
    if (request.current !== undefined && !used.has(nameKey(request.current))) {
      names.set(request.id, request.current)
      used.add(nameKey(request.current))
    }
  }
  for (const request of ordered) {
    if (names.has(request.id)) continue
    const stem = safeStem(request.title)
    const extension = request.extension ?? (request.kind === 'article' ? '.md' : '')
    let name = stem + extension
    for (let n = 2; used.has(nameKey(name)); n++) name = `${stem} (${n})${extension}`
    names.set(request.id, name)
    used.add(nameKey(name))
  }
  return names
}

/** Whether `name` is a valid file or folder name everywhere kbsync runs (used by tests and checks). */
export function isPortableName(name: string): boolean {
  if (name === '' || name === '.' || name === '..') return false
  // eslint-disable-next-line no-control-regex
  if (/[/\\:*?"<>|\u0000-\u001f]/.test(name)) return false
  if (/[. ]$/.test(name) || name.startsWith('.')) return false
  if (windowsDevice.test(name.split('.')[0]!.trim())) return false
  if (Buffer.byteLength(name) > 255) return false
  return name === name.normalize('NFC')
}
