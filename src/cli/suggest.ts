/**
 * "Did you mean …?" for mistyped commands and options: the known name
 * closest to what was typed, when it is close enough to be a typo.
 */

/** Levenshtein distance (insertions, deletions, substitutions; a swap of neighbours counts one). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1
  const cols = b.length + 1
  const d: number[][] = Array.from({length: rows}, (_, i) =>
    Array.from({length: cols}, (_, j) => (i === 0 ? j : j === 0 ? i : 0))
  )
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1)
    }
  }
  return d[a.length]![b.length]!
}

/** The name among `known` closest to `typed`, if at most a third of its length (at least 1, at most 3) away. */
export function closest(typed: string, known: readonly string[]): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(typed.length / 3)))
  let best: string | undefined
  let bestDistance = Infinity
  for (const name of known) {
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase())
    if (distance < bestDistance) {
      best = name
      bestDistance = distance
    }
  }
  return bestDistance <= limit ? best : undefined
}
