/**
 * Git LFS pointer files: a clone made without `git lfs pull` (a CI checkout
 * without `lfs: true`) holds, at the path of each image or attachment kept
 * in LFS, a small text naming its content
 * (`version https://git-lfs.github.com/spec/v1`, `oid sha256:…`,
 * `size N`). Uploaded, every such image is broken on the platform: they are
 * an error naming them, one for all.
 */
import type {Diagnostic} from './diagnostic.js'

/** A pointer is a few lines: anything this size or larger is content. */
const pointerBytesMax = 200

const specLine = Buffer.from('version https://git-lfs.github.com/spec/v1')

/** Whether `bytes` (a whole file) are a Git LFS pointer: small, opening with the spec line. */
export function isLfsPointer(bytes: Uint8Array): boolean {
  if (bytes.length >= pointerBytesMax || bytes.length < specLine.length) return false
  return Buffer.from(bytes.buffer, bytes.byteOffset, specLine.length).equals(specLine)
}

/** How many paths are named before "and N more". */
const namedMax = 2

/** One error naming the pointer files among the files a push would upload (sorted, counted), or none. */
export function lfsPointerDiagnostic(paths: readonly string[]): Diagnostic | undefined {
  if (paths.length === 0) return undefined
  const sorted = [...paths].sort()
  const named = sorted.slice(0, namedMax).map((file) => `\`${file}\``)
  const more = sorted.length - named.length
  const list = more > 0 ? `${named.join(', ')} and ${more.toLocaleString('en-US')} more` : named.join(' and ')
  const message =
    sorted.length === 1
      ? `${list} is a Git LFS pointer, not its content`
      : `${sorted.length.toLocaleString('en-US')} files are Git LFS pointers, not their content: ${list}`
  return {
    severity: 'error',
    message,
    hint: 'Run `git lfs pull` (in CI: `actions/checkout` with `lfs: true`), then push again',
    rule: 'lfs-pointer'
  }
}
