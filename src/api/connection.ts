/**
 * The client's connection pool: a keep-alive undici Agent, loaded and
 * opened with the first request (`import()`), so that importing kbsync, or
 * a client that never sends a request, does not load undici.
 */
import type {Agent, request} from 'undici'

/** The pool and the function that sends a request through it. */
export interface Connection {
  agent: Agent
  request: typeof request
}

/** Loads undici and opens a pool of up to `connections` keep-alive connections. */
export async function openConnection(connections: number): Promise<Connection> {
  const undici = await import('undici')
  const agent = new undici.Agent({keepAliveTimeout: 10_000, connections, headersTimeout: 0, bodyTimeout: 0})
  return {agent, request: undici.request}
}
