/**
 * The size-stable check run before a push: a file still being written
 * (size or mtime moving) sends the batch back to wait, so a half-written file
 * is never pushed.
 */
import {stat} from 'node:fs/promises'
import path from 'node:path'

async function signature(file: string): Promise<string> {
  try {
    const info = await stat(file)
    return `${info.size}:${info.mtimeMs}`
  } catch {
    return 'missing'
  }
}

/** Whether every file in `relatives` (under `root`) kept its size and mtime over `ms`. */
export async function filesStable(root: string, relatives: readonly string[], ms: number): Promise<boolean> {
  if (relatives.length === 0) return true
  const files = relatives.map((r) => path.join(root, r))
  const before = await Promise.all(files.map(signature))
  await new Promise((resolve) => setTimeout(resolve, ms))
  const after = await Promise.all(files.map(signature))
  return before.every((s, i) => s === after[i])
}
