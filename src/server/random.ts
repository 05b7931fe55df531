/** A small seeded PRNG (mulberry32), so fault sequences are reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// Real ids mix upper and lower case (`A2vOgM3fifF`): a client that folds case must fail here too.
const idAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** A short id like the platform's (`OJHEAFQ26YT`, `A2vOgM3fifF`). */
export function shortId(random: () => number): string {
  let id = ''
  for (let i = 0; i < 11; i++) id += idAlphabet[Math.floor(random() * idAlphabet.length)]
  return id
}
