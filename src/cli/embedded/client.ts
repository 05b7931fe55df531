/**
 * The API client of an embedded knowledge base, as every command uses it:
 * a `KbClient` on the leased server that survives the owner's exit. When
 * the process serving the data file has stopped (its record is gone), the
 * next request leases the knowledge base afresh: this process then serves
 * it itself, or uses the server of whichever process took it over. A
 * request in flight while the owner stops fails with a message saying so
 * (it is not sent again: it may have been applied): a one-shot command so
 * fails clearly; `watch` retries its push and goes on.
 */
import {KbClient, NetworkError} from '../../api/index.js'
import {isAlive, probe} from './liveness.js'
import type {Lease} from './share.js'

/** The client methods that send requests (each goes to the current lease). */
const requestMethods = [
  'getItem',
  'createItem',
  'updateItem',
  'moveItem',
  'deleteItem',
  'getStructure',
  'getTree',
  'getPermissions',
  'setPermissions',
  'uploadFile',
  'downloadFile'
] as const

/** A client over leases, and how to let go of the last one. */
export interface LeasedClient {
  client: KbClient
  /** The lease in use now. */
  lease(): Lease
  /** Closes the client and releases the lease (an owner's server stops and saves). */
  close(): Promise<void>
}

/**
 * A `KbClient` that sends each request to the server of the current lease
 * (`first`, then whatever `acquire` gives after the owner left); `make`
 * builds the plain client of a lease.
 */
export function leasedClient(
  first: Lease,
  acquire: () => Promise<Lease>,
  make: (lease: Lease) => KbClient
): LeasedClient {
  let current = {lease: first, client: make(first)}
  let lost = false
  let renewing: Promise<void> | undefined
  const renew = async () => {
    const old = current
    await old.client.close().catch(() => undefined)
    const lease = await acquire()
    current = {lease, client: make(lease)}
    lost = false
  }
  const ready = async () => {
    // An owner that stopped between two requests is no failure: the next request simply goes where the knowledge base is now.
    if (lost || !current.lease.isCurrent()) await (renewing ??= renew().finally(() => (renewing = undefined)))
    return current
  }
  const send = async (name: (typeof requestMethods)[number], args: unknown[]) => {
    const {lease, client} = await ready()
    try {
      return await (client[name] as (...a: unknown[]) => Promise<unknown>)(...args)
    } catch (error) {
      if (error instanceof NetworkError && lease.role === 'client' && (await ownerGone(lease))) {
        lost = true
        throw new Error(
          `${error.message}: the process serving the embedded knowledge base (kbsync process ${lease.owner.pid}, \`kbsync ${lease.owner.command}\`) stopped. ` +
            'Run the command again (watch retries by itself): it then serves the knowledge base itself.',
          {cause: error}
        )
      }
      throw error
    }
  }
  const methods = Object.fromEntries(requestMethods.map((name) => [name, (...args: unknown[]) => send(name, args)]))
  const client = new Proxy(current.client, {
    get(_target, property) {
      if (typeof property === 'string' && property in methods) return methods[property]
      const value = Reflect.get(current.client, property, current.client) as unknown
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(current.client) : value
    }
  })
  return {
    client,
    lease: () => current.lease,
    async close() {
      await renewing?.catch(() => undefined)
      try {
        await current.client.close()
      } finally {
        await current.lease.release()
      }
    }
  }
}

/** Whether the owner of `lease` is gone: its process, or its server. */
async function ownerGone(lease: Lease): Promise<boolean> {
  if (!isAlive(lease.owner.pid)) return true
  return (
    (await probe({
      pid: lease.owner.pid,
      nonce: '',
      command: lease.owner.command,
      apiUrl: lease.apiUrl,
      token: lease.token
    })) === 'refused'
  )
}
