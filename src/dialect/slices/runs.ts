/**
 * The long runs of lines a parse can take in slices: the rows of a table
 * and the items of a list, every line at the left margin. micromark keeps
 * every event of a document until its end (some 25 KB per table row), so a
 * table of 20,000 rows took 700 MB to parse; a run's middle lines parsed a
 * few hundred at a time keep that bounded by the slice.
 *
 * Found by the lines' first characters only (no regular expression runs
 * over a line): whether a run really is one table or one list is for the
 * parse to confirm (`index.ts`).
 */

/** A run: lines `first..last` (0-based, inclusive); `head` lines open it and stay with the document. */
export interface Run {
  kind: 'table' | 'list'
  first: number
  /** How many lines from `first` open the construct: a table's header and delimiter row, a list's first item. */
  head: number
  last: number
}

/** The lines of `source` as start offsets (line `i` runs from `starts[i]` to the `\n` before `starts[i + 1]`). */
export function lineStarts(source: string): number[] {
  const starts = [0]
  for (let at = source.indexOf('\n'); at !== -1; at = source.indexOf('\n', at + 1)) starts.push(at + 1)
  return starts
}

/** The runs of `source` whose middle (the lines between head and last) has at least `minimumMiddle` lines. */
export function findRuns(source: string, starts: number[], minimumMiddle: number): Run[] {
  const runs: Run[] = []
  const line = (index: number): string => source.slice(starts[index], (starts[index + 1] ?? source.length + 1) - 1)
  for (let index = 0; index < starts.length; index++) {
    const text = line(index)
    let run: Run | undefined
    if (text.startsWith('|') && index + 1 < starts.length && isDelimiterRow(line(index + 1))) {
      let last = index + 1
      while (last + 1 < starts.length && line(last + 1).startsWith('|')) last++
      run = {kind: 'table', first: index, head: 2, last}
    } else {
      const marker = itemMarker(text)
      if (marker !== undefined) {
        let last = index
        while (last + 1 < starts.length && itemMarker(line(last + 1)) === marker) last++
        run = {kind: 'list', first: index, head: 1, last}
      }
    }
    if (!run) continue
    // The last line stays with the document too: what follows it (a lazy line, a row without a pipe) is read as
    // in the whole source.
    if (run.last - run.first - run.head >= minimumMiddle) runs.push(run)
    index = run.last
  }
  return runs
}

/** Whether `text` can be a table's delimiter row: only pipes, colons, dashes and blanks, a pipe and a dash. */
function isDelimiterRow(text: string): boolean {
  if (!text.includes('-') || !text.includes('|')) return false
  for (const character of text) if (!'|:- \t'.includes(character)) return false
  return true
}

/**
 * The marker kind of a list item line at the margin with text after its
 * marker (`-`, `*`, `+`, or `.`/`)` after 1-9 digits), else undefined.
 */
function itemMarker(text: string): string | undefined {
  let at = 0
  while (at < text.length && at < 9 && text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57) at++
  const marker = text.charAt(at)
  const ordered = at > 0
  if (ordered ? marker !== '.' && marker !== ')' : marker !== '-' && marker !== '*' && marker !== '+') return undefined
  if (text.charAt(at + 1) !== ' ' || text.trim().length <= at + 1) return undefined
  return ordered ? 'ordered' + marker : marker
}
