/**
 * The diff of two key sequences (Myers' greedy algorithm, iterative): the
 * hunks where base blocks were replaced by remote blocks. O((n+m)·d) time,
 * O(d²) memory for d differences (at most 1000), after the common prefix
 * and suffix are taken off.
 */

/** Base blocks `[baseStart, baseEnd)` replaced by remote blocks `[remoteStart, remoteEnd)` (either may be empty). */
export interface Hunk {
  baseStart: number
  baseEnd: number
  remoteStart: number
  remoteEnd: number
}

/** The hunks that turn `base` into `remote`, in order, none touching another. */
export function diffKeys(base: readonly string[], remote: readonly string[]): Hunk[] {
  let prefix = 0
  while (prefix < base.length && prefix < remote.length && base[prefix] === remote[prefix]) prefix++
  let suffix = 0
  while (
    suffix < base.length - prefix &&
    suffix < remote.length - prefix &&
    base[base.length - 1 - suffix] === remote[remote.length - 1 - suffix]
  )
    suffix++
  const a = base.slice(prefix, base.length - suffix)
  const b = remote.slice(prefix, remote.length - suffix)
  const matches = commonPairs(a, b)
  return hunksBetween(matches, a.length, b.length).map((hunk) => ({
    baseStart: hunk.baseStart + prefix,
    baseEnd: hunk.baseEnd + prefix,
    remoteStart: hunk.remoteStart + prefix,
    remoteEnd: hunk.remoteEnd + prefix
  }))
}

/** The hunks between matched pairs (each `[i, j]`: a[i] equals b[j], increasing in both). */
function hunksBetween(matches: ReadonlyArray<readonly [number, number]>, n: number, m: number): Hunk[] {
  const hunks: Hunk[] = []
  let i = 0
  let j = 0
  for (const [mi, mj] of [...matches, [n, m] as const]) {
    if (mi > i || mj > j) hunks.push({baseStart: i, baseEnd: mi, remoteStart: j, remoteEnd: mj})
    i = mi + 1
    j = mj + 1
  }
  return hunks
}

/**
 * Past this many differences the rest is one hunk: a coarser diff, still a
 * true one, in bounded time and memory on texts that differ everywhere.
 */
const maxDifferences = 1000

/** The matched pairs of a shortest edit script from `a` to `b` (Myers), in increasing order. */
function commonPairs(a: readonly string[], b: readonly string[]): Array<[number, number]> {
  const n = a.length
  const m = b.length
  if (n === 0 || m === 0) return []
  const max = Math.min(n + m, maxDifferences)
  const offset = max + 1
  const v = new Int32Array(2 * max + 3)
  // trace[d]: the furthest reaching x of each diagonal -d..d before step d (what step d read).
  const trace: Int32Array[] = []
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d, offset + d + 1))
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
      let x = down ? v[offset + k + 1]! : v[offset + k - 1]! + 1
      let y = x - k
      while (x < n && y < m && a[x] === b[y]) {
        x++
        y++
      }
      v[offset + k] = x
      if (x >= n && y >= m) return backtrack(trace, n, m)
    }
  }
  return []
}

/** Walks the trace back from the end: the diagonal moves are the matches. */
function backtrack(trace: readonly Int32Array[], n: number, m: number): Array<[number, number]> {
  const pairs: Array<[number, number]> = []
  let x = n
  let y = m
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d]!
    const at = (k: number): number => v[k + d]!
    const k = x - y
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1))
    const previousK = down ? k + 1 : k - 1
    const previousX = d === 0 ? 0 : at(previousK)
    const startX = d === 0 ? 0 : down ? previousX : previousX + 1
    const startY = startX - k
    while (x > startX && y > startY) {
      x--
      y--
      pairs.push([x, y])
    }
    x = previousX
    y = previousX - previousK
  }
  return pairs.reverse()
}

/**
 * A hunk split where its blocks are of the same kind on both sides: each
 * such pair becomes a hunk of its own (patched in place), the rest stays
 * runs of insertions, deletions or replacements. `baseKinds` and
 * `remoteKinds` are the kinds of the hunk's blocks, in order.
 */
export function alignHunk(hunk: Hunk, baseKinds: readonly string[], remoteKinds: readonly string[]): Hunk[] {
  const parts: Hunk[] = []
  let i = 0
  let j = 0
  const pair = (): void => {
    parts.push({baseStart: i, baseEnd: i + 1, remoteStart: j, remoteEnd: j + 1})
    i++
    j++
  }
  for (const part of diffKeys(baseKinds, remoteKinds)) {
    while (i < part.baseStart) pair()
    parts.push(part)
    i = part.baseEnd
    j = part.remoteEnd
  }
  while (i < baseKinds.length) pair()
  return parts.map((part) => ({
    baseStart: part.baseStart + hunk.baseStart,
    baseEnd: part.baseEnd + hunk.baseStart,
    remoteStart: part.remoteStart + hunk.remoteStart,
    remoteEnd: part.remoteEnd + hunk.remoteStart
  }))
}
