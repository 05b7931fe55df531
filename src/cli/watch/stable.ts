/**
 * The size-stable check run before a push: a file still being written
 * (size or mtime moving) sends the batch back to wait, so a half-written file
 * is never pushed. A file whose mtime is already older than the stability
 * time has held still that long: it costs one `stat` and no wait (the
 * debounce before a batch usually provides that quiet time already).
 */
import {stat} from 'node:fs/promises'
import path from 'node:path'

/** A path's size and mtime as a key (`missing` when it is gone), and its age. */
export interface Signature {
  key: string
  /** Milliseconds since the last modification (negative for an mtime in the future). */
  age: number
}

/** The signature of `file` (absolute) now. */
export async function signature(file: string): Promise<Signature> {
  try {
    const info = await stat(file)
    return {key: `${info.size}:${info.mtimeMs}`, age: Date.now() - info.mtimeMs}
  } catch {
    return {key: 'missing', age: Number.POSITIVE_INFINITY}
  }
}

/** Whether every file in `relatives` (under `root`) has kept its size and mtime for `ms`. */
export async function filesStable(root: string, relatives: readonly string[], ms: number): Promise<boolean> {
  if (relatives.length === 0) return true
  const files = relatives.map((r) => path.join(root, r))
  const before = await Promise.all(files.map(signature))
  const youngest = Math.min(...before.map((s) => s.age))
  if (youngest >= ms) return true
  // Wait out what is left of the quiet time (all of it for an mtime in the future), then look again.
  await new Promise((resolve) => setTimeout(resolve, youngest >= 0 ? ms - youngest : ms))
  const after = await Promise.all(files.map(signature))
  return before.every((s, i) => s.key === after[i]!.key)
}
