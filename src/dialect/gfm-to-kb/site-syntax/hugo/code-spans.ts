/**
 * The inline code spans of one line, found as CommonMark pairs them (a run
 * of backticks ends at the next run of the same length), in linear time:
 * the template passes leave what an author wrote in inline code alone.
 */

/** Start and end offsets of each code span of `line`, in order. */
export function codeSpans(line: string): Array<[number, number]> {
  if (!line.includes('`')) return []
  const runs: Array<[number, number]> = []
  for (const match of line.matchAll(/`+/g)) runs.push([match.index, match[0].length])
  // For each run, the next run of the same length: found from the right, one map of lengths.
  const next: number[] = new Array<number>(runs.length).fill(-1)
  const seen = new Map<number, number>()
  for (let index = runs.length - 1; index >= 0; index--) {
    const length = runs[index]![1]
    next[index] = seen.get(length) ?? -1
    seen.set(length, index)
  }
  const spans: Array<[number, number]> = []
  for (let index = 0; index < runs.length; index++) {
    const close = next[index]!
    if (close === -1) continue
    spans.push([runs[index]![0], runs[close]![0] + runs[close]![1]])
    index = close
  }
  return spans
}

/** Whether `offset` lies inside one of `spans` (in order, not overlapping: a binary search). */
export function inSpan(spans: ReadonlyArray<[number, number]>, offset: number): boolean {
  let low = 0
  let high = spans.length - 1
  while (low <= high) {
    const middle = (low + high) >> 1
    const [start, end] = spans[middle]!
    if (offset < start) high = middle - 1
    else if (offset >= end) low = middle + 1
    else return true
  }
  return false
}
