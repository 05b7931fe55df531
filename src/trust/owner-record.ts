/**
 * Whether to believe the server record of an embedded knowledge base
 * (`.kbsync/local-kb.json.lock`), which says which kbsync process serves
 * the data file and at which address, with its token. The record sits in
 * the synced folder, which a cloned repository fills: a planted record
 * naming a live process (pid 1 always is) and a server of the attacker's
 * would receive every article of a push, with the token, while kbsync said
 * "embedded local knowledge base".
 *
 * So a record is used only when
 * - it carries the seal of its owner (`user-secret.ts`): an HMAC, with the
 *   user's key kept outside every repository, over the data file's real
 *   path and every field the record holds. Only a kbsync process of this
 *   user, serving this data file, can write one; a planted or copied record
 *   cannot;
 * - its addresses are loopback ones (`http://127.0.0.1:<port>`, `localhost`,
 *   `[::1]`): the embedded server listens nowhere else.
 * Anything else is not an owner: the caller replaces the record and serves
 * the data file itself. The process being alive, and a kbsync server
 * answering there, are checked by the caller as before.
 */
import {isLoopbackHost} from './network-address.js'
import {isSealed, seal, userSecret, type UserSecret} from './user-secret.js'

/** The embedded server's record (`cli/embedded/record.ts`): the fields the seal covers, and the seal. */
export interface OwnerRecord {
  /** The owning process. */
  pid: number
  /** Unique per claim: a process releases or republishes only the record it claimed. */
  nonce: string
  /** The owner's command (`watch`, `serve`, ...), for messages. */
  command: string
  /** Set once the server listens. */
  apiUrl?: string
  filesUrl?: string
  token?: string
  /** Set when the owner starts stopping its server: it removes the record once its data is saved. */
  closing?: boolean
  /** The owner's seal over the rest (`sealOwnerRecord`): a record without a valid one is not believed. */
  seal?: string
}

const purpose = 'kbsync embedded server record'

/** What the seal covers: the data file (its real path) and every field but the seal, in a fixed order. */
function sealedText(record: OwnerRecord, dataFile: string): string {
  return JSON.stringify([
    dataFile,
    record.pid,
    record.nonce,
    record.command,
    record.apiUrl ?? null,
    record.filesUrl ?? null,
    record.token ?? null,
    record.closing === true
  ])
}

/** `record` with its seal for the data file `dataFile` (its real path), as its owner writes it. */
export function sealOwnerRecord<R extends OwnerRecord>(record: R, dataFile: string, secret?: UserSecret): R {
  const {seal: _old, ...fields} = record
  return {...fields, seal: seal(purpose, sealedText(fields, dataFile), secret ?? userSecret())} as R
}

/** Whether `url` is an http URL on a loopback host. */
export function isLoopbackHttp(url: string | undefined): boolean {
  if (url === undefined) return false
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  const host = parsed.hostname
  return parsed.protocol === 'http:' && parsed.username === '' && parsed.password === '' && isLoopbackHost(host)
}

/**
 * Why the record read for the data file `dataFile` (its real path) is not
 * one to use, or undefined when it is: sealed by a process of this user for
 * this file, addresses on loopback (pure but for the user's key).
 */
export function untrustedOwnerRecord(record: OwnerRecord, dataFile: string, secret?: UserSecret): string | undefined {
  const key = secret ?? userSecret()
  if (!isSealed(purpose, sealedText(record, dataFile), record.seal, key))
    return key.persistent
      ? 'it does not carry the seal of a kbsync process of yours serving this file (planted, copied, or written by hand)'
      : `its seal cannot be checked: kbsync keeps the key it seals with in your cache folder, and ${key.where}`
  for (const url of [record.apiUrl, record.filesUrl])
    if (url !== undefined && !isLoopbackHttp(url)) return `it names ${url}, which is not a loopback address`
  return undefined
}
