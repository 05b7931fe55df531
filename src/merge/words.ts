/**
 * A paragraph or heading the platform changed, patched word by word: a
 * three-way merge of words. The block as written from base (`before`) and
 * as written from the platform (`after`) say which words the platform
 * changed; the author's text (`source`) says how the author wrote the rest
 * (line breaks, emphasis markers, reference links), which stays.
 */
import {diffKeys, type Hunk} from './block-diff.js'

/** A text as words and what separates them (`separators[i]` follows `words[i]`; the last is empty). */
interface Words {
  words: string[]
  separators: string[]
}

/**
 * Splits on spaces and line breaks (with a container's continuation after
 * them: `> `, indentation), and before a link's `](` or `][`: a link text's
 * last word and its destination are two words, so an edit of the text keeps
 * the destination as the author wrote it (`\&`, where the platform's form has
 * `&`; a reference, `[text][ref]`, where it has the URL).
 */
function wordsOf(text: string, quoted: boolean): Words {
  const parts = text.split(quoted ? /([ \t]*\n[ \t>]*|[ \t]+|(?=\][([]))/ : /([ \t]*\n[ \t]*|[ \t]+|(?=\][([]))/)
  const words: string[] = []
  const separators: string[] = []
  for (let index = 0; index < parts.length; index += 2) {
    words.push(parts[index]!)
    separators.push(parts[index + 1] ?? '')
  }
  return {words, separators}
}

/** For each word of `from`, the index of its counterpart in `to` (-1 where the two texts differ in length). */
function matchedIndexes(from: readonly string[], to: readonly string[]): Int32Array {
  const matched = new Int32Array(from.length)
  let i = 0
  let j = 0
  const end: Hunk = {baseStart: from.length, baseEnd: from.length, remoteStart: to.length, remoteEnd: to.length}
  for (const hunk of [...diffKeys(from, to), end]) {
    for (; i < hunk.baseStart; i++, j++) matched[i] = j
    // A run written otherwise word for word (`**` for `__`): each word is its counterpart.
    const aligned = hunk.baseEnd - hunk.baseStart === hunk.remoteEnd - hunk.remoteStart
    for (; i < hunk.baseEnd; i++) matched[i] = aligned ? hunk.remoteStart + i - hunk.baseStart : -1
    j = hunk.remoteEnd
  }
  return matched
}

/**
 * The platform's changes (hunks of `before` -> `after`), each widened until
 * its neighbours are words the author wrote as `before` has them, merging
 * hunks that meet.
 */
function widened(changes: readonly Hunk[], toSource: Int32Array): Hunk[] {
  const regions: Hunk[] = []
  for (const [index, change] of changes.entries()) {
    const region = {...change}
    // Outside the platform's changes `before` and `after` are the same words: a region widens on both alike.
    const floor = regions.at(-1)?.baseEnd ?? 0
    const ceiling = changes[index + 1]?.baseStart ?? toSource.length
    while (region.baseStart > floor && toSource[region.baseStart - 1] === -1) {
      region.baseStart--
      region.remoteStart--
    }
    while (region.baseEnd < ceiling && toSource[region.baseEnd] === -1) {
      region.baseEnd++
      region.remoteEnd++
    }
    const previous = regions.at(-1)
    if (previous && previous.baseEnd >= region.baseStart) {
      previous.baseEnd = Math.max(previous.baseEnd, region.baseEnd)
      previous.remoteEnd = Math.max(previous.remoteEnd, region.remoteEnd)
    } else regions.push(region)
  }
  return regions
}

/**
 * `source` (the block's text in the file) with the platform's changes from
 * `before` to `after` (the block written from base and from the platform,
 * continuation prefix included); undefined when the author's words and the
 * platform's changes cannot be told apart. The caller proves the result;
 * `quoted` says the lines continue with `>`.
 */
export function patchWords(source: string, before: string, after: string, quoted: boolean): string | undefined {
  const own = wordsOf(source, quoted)
  const old = wordsOf(before, quoted)
  const now = wordsOf(after, quoted)
  const toSource = matchedIndexes(old.words, own.words)
  const out: string[] = []
  let i = 0
  for (const region of widened(diffKeys(old.words, now.words), toSource)) {
    const from = region.baseStart === 0 ? 0 : toSource[region.baseStart - 1]! + 1
    const to = region.baseEnd === old.words.length ? own.words.length : toSource[region.baseEnd]!
    if (from < i || to < from) return undefined
    for (; i < from; i++) out.push(own.words[i]!, own.separators[i]!)
    // Words added after the author's last: they follow it as they follow it on the platform (its last separator is none).
    if (from === own.words.length && out.length > 0) out[out.length - 1] = now.separators[region.remoteStart - 1] ?? ''
    for (let j = region.remoteStart; j < region.remoteEnd; j++) {
      // After a replaced run, the separator the author's run ended with (its line break stays).
      const separator = j === region.remoteEnd - 1 && to > from ? own.separators[to - 1]! : now.separators[j]!
      out.push(now.words[j]!, separator)
    }
    // Words deleted at the end: the separator before them goes with them.
    if (region.remoteEnd === region.remoteStart && to === own.words.length && out.length > 0) out[out.length - 1] = ''
    i = to
  }
  for (; i < own.words.length; i++) out.push(own.words[i]!, own.separators[i]!)
  return out.join('')
}
