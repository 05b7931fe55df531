/**
 * The name of the temporary file every write of kbsync goes through before
 * it is renamed over its target, in the scheme `stale-temp.ts` knows
 * (`.NAME.PID.N.tmp`). A file name may take the 255 bytes a file system
 * allows; the temporary name adds a dot, the process id and a counter, so
 * there NAME is cut to fit: a pull of a web edit to a file named near that
 * limit failed with ENAMETOOLONG on the temporary file, and so did every
 * pull after it.
 */
import path from 'node:path'

/** Most bytes of one file name (ext4, XFS, APFS; NTFS counts 255 UTF-16 units, never fewer than bytes). */
const maxNameBytes = 255

let counter = 0

/** A new temporary file name beside `target`: `.NAME.PID.N.tmp`, NAME cut so the whole fits in one file name. */
export function temporaryBeside(target: string): string {
  const suffix = `.${process.pid}.${counter++}.tmp`
  const name = cutToBytes(path.basename(target), maxNameBytes - 1 - suffix.length)
  return path.join(path.dirname(target), `.${name}${suffix}`)
}

/** `name` cut to at most `bytes` bytes of UTF-8, never inside a character. */
function cutToBytes(name: string, bytes: number): string {
  const encoder = new TextEncoder()
  if (encoder.encode(name).length <= bytes) return name
  let cut = ''
  let used = 0
  for (const character of name) {
    const size = encoder.encode(character).length
    if (used + size > bytes) break
    cut += character
    used += size
  }
  return cut
}
