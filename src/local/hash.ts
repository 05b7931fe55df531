/** Content hashes of the folder side. */
import {createHash} from 'node:crypto'

/** sha256 of a string or bytes, hex. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}
